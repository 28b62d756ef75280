/**
 * Startup files changed on disk, taken in without a rebuild (`ContentSnapshot.withFiles` with
 * STARTUP_FILES, and `withChangedStartups`): the same records, order and search answers as a whole build of the
 * same files, and the same diagnostics for a file that does not build.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createCatalog, withChangedStartups, type Catalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { formatDiagnostic } from '../../src/pipeline/diagnostics.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { STARTUP_FILES } from '../../src/pipeline/record-files.ts';
import { FIXTURES } from '../helpers/server.ts';

const VALID = join(FIXTURES, 'valid');

/** As the server takes changed files in: the old record of a changed file goes first. */
const withStartupFiles = (catalog: Catalog, files: { slug: string; text: string }[], removals: string[]) =>
  new ContentSnapshot(catalog).withFiles(STARTUP_FILES, files, [...removals, ...files.map((f) => f.slug)], '2026-11-21');

async function starter(): Promise<Catalog> {
  const built = runPipeline(await readContent(VALID), { today: '2026-11-21' });
  if (!built.value) throw new Error('the valid fixture does not build');
  return createCatalog(built.value.data, built.value.postings);
}

test('a renamed startup and a removed one: records in order, deals untouched, search follows', async () => {
  const catalog = await starter();
  const text = (await readFile(join(VALID, 'startups', 'formbird.md'), 'utf8')).replace(/^name: .*$/m, 'name: Zeppelin Forms');
  const change = withStartupFiles(catalog, [{ slug: 'formbird', text }], ['petshop']);
  expect(change.diagnostics).toEqual([]);
  const next = withChangedStartups(catalog, change.value!.data, change.value!.changed, change.value!.removedIds);
  expect(next.startups.map((s) => s.slug)).toEqual(catalog.startups.filter((s) => s.slug !== 'petshop').map((s) => s.slug));
  expect(next.startups.find((s) => s.slug === 'formbird')?.name).toBe('Zeppelin Forms');
  expect(next.deals).toBe(catalog.deals);
  expect(next.version).not.toBe(catalog.version);
  const refs = (catalog: Catalog) => catalog.startupSearch.index.refs.filter((_, doc) => !catalog.startupSearch.index.removed?.[doc]);
  expect(refs(next)).toContain('s-frm00004');
  expect(refs(next)).not.toContain(catalog.startups.find((s) => s.slug === 'petshop')?.id);
});

test("a startup file that does not build, or takes another one's id, is refused with its diagnostics", async () => {
  const catalog = await starter();
  const formbird = await readFile(join(VALID, 'startups', 'formbird.md'), 'utf8');
  const otherId = catalog.startups.find((s) => s.slug === 'shopfront')?.id as string;
  const refused = withStartupFiles(
    catalog,
    [
      { slug: 'formbird', text: formbird.replace(/^category: .*$/m, 'category: sass') },
      { slug: 'copycat', text: formbird.replace(/^id: .*$/m, `id: ${otherId}`) },
    ],
    [],
  );
  expect(refused.value).toBeUndefined();
  expect(refused.diagnostics.map(formatDiagnostic)).toEqual([
    expect.stringMatching(/^content\/startups\/formbird\.md:4 category: expected one of .*, got `sass`/),
    `content/startups/copycat.md id: id \`${otherId}\` is already used by \`shopfront\``,
  ]);
});
