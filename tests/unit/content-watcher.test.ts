/**
 * The dev server's content watcher (functions/dev/content-watcher.ts) on a real folder: saves
 * as editors make them (in place, or a new file renamed over the old one, again and again),
 * reported once per batch; swap, backup and lock files never; a folder made later is followed.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { watchContent, type ContentWatcher } from '../../functions/dev/content-watcher.ts';
import { isContentFile } from '../../src/pipeline/read-content.ts';

let root: string;
let watcher: ContentWatcher | undefined;
let batches: (string[] | undefined)[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'content-watcher-'));
  await mkdir(join(root, 'deals'));
  batches = [];
  watcher = watchContent(root, (paths) => batches.push(paths), { settleMs: 60 });
});
afterEach(async () => {
  watcher?.close();
  await rm(root, { recursive: true, force: true });
});

/** Wait until `count` batches came (or fail after 3 s). */
async function batchesOf(count: number): Promise<(string[] | undefined)[]> {
  const deadline = Date.now() + 3_000;
  while (batches.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  // A little longer: a batch too many would show.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return batches;
}

test('atomic saves of the same file are each reported, editor files never', async () => {
  for (const title of ['one', 'two', 'three']) {
    await writeFile(join(root, 'deals', '.acme.md.swp'), 'swap');
    await writeFile(join(root, 'deals', 'acme.md~'), 'backup');
    await writeFile(join(root, 'deals', 'acme.md.tmp'), `title: ${title}`);
    await rename(join(root, 'deals', 'acme.md.tmp'), join(root, 'deals', 'acme.md'));
    await batchesOf(batches.length + 1);
  }
  expect(batches).toEqual([['deals/acme.md'], ['deals/acme.md'], ['deals/acme.md']]);
});

test('changes close together are one batch; a folder made later is followed', async () => {
  await writeFile(join(root, 'site.yaml'), 'name: x');
  await writeFile(join(root, 'deals', 'a.md'), 'a');
  await writeFile(join(root, 'deals', 'b.md'), 'b');
  expect(await batchesOf(1)).toEqual([['deals/a.md', 'deals/b.md', 'site.yaml']]);

  await mkdir(join(root, 'startups'));
  // The new folder is read whole: files may have come with it.
  expect(await batchesOf(2)).toEqual([['deals/a.md', 'deals/b.md', 'site.yaml'], undefined]);
  await writeFile(join(root, 'startups', 'shop.md'), 'shop');
  expect((await batchesOf(3))[2]).toEqual(['startups/shop.md']);
});

test('content files are the ones the build reads', () => {
  expect(['deals/acme.md', 'startups/shop.md', 'categories.yaml', 'site.yaml', 'synonyms.yaml'].filter(isContentFile)).toHaveLength(5);
  const others = ['deals/.acme.md.swp', 'deals/.#acme.md', 'deals/acme.md~', 'deals/4913', 'deals/sub/x.md', 'logos/acme.png', 'submissions/x.md', '.git/HEAD', 'README.md', 'deals/acme.yaml'];
  expect(others.filter(isContentFile)).toEqual([]);
});
