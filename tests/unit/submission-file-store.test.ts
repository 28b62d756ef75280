/**
 * The file engine of the private submission store (docs/submissions.md) on real temporary
 * folders: the store contract, the layout (pending/<id>.json, reviewed/<YYYY-MM>/<id>.json),
 * atomic writes that leave no temporary file, recovery from a review a crash interrupted (the
 * archived copy wins), and a record that does not parse is skipped with a warning, not fatal.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FileSubmissionStore } from '../../functions/submissions/file-store.ts';
import { describeSubmissionStore, record } from '../helpers/submission-store-contract.ts';

let work: string;
let count = 0;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-submission-files-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** An empty store folder. */
const folder = (): string => join(work, `store-${(count += 1)}`);

describeSubmissionStore(
  'files under DATA_DIR/submissions',
  () => {
    const root = folder();
    return Promise.resolve({ open: () => new FileSubmissionStore(root), cleanup: () => rm(root, { recursive: true, force: true }) });
  },
  false,
);

describe('the files on disk', () => {
  test('pending/<id>.json while waiting; reviewed/<YYYY-MM of the review>/<id>.json once reviewed; no temporary files', async () => {
    const root = folder();
    const store = new FileSubmissionStore(root);
    const waiting = record();
    await store.put(waiting);
    expect(JSON.parse(await readFile(join(root, 'pending', `${waiting.id}.json`), 'utf8'))).toEqual(waiting);
    const reviewed = { ...waiting, status: 'rejected' as const, reviewedAt: '2026-04-01T08:00:00.000Z', reviewedBy: 'ada@example.com', rejectionReason: 'Spam' };
    expect(await store.update(reviewed)).toBe(true);
    expect(existsSync(join(root, 'pending', `${waiting.id}.json`))).toBe(false);
    expect(JSON.parse(await readFile(join(root, 'reviewed', '2026-04', `${waiting.id}.json`), 'utf8'))).toEqual(reviewed);
    const everything = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(everything).toEqual([`${waiting.id}.json`]);
    await store.close();
  });

  test('a review interrupted between writing the archive copy and removing the pending one: the archive copy wins on the next open', async () => {
    const root = folder();
    const waiting = record();
    const reviewed = { ...waiting, status: 'approved' as const, reviewedAt: '2026-05-02T08:00:00.000Z', reviewedBy: 'ada@example.com', dealId: 'd-00000009' };
    await mkdir(join(root, 'pending'), { recursive: true });
    await mkdir(join(root, 'reviewed', '2026-05'), { recursive: true });
    await writeFile(join(root, 'pending', `${waiting.id}.json`), JSON.stringify(waiting));
    await writeFile(join(root, 'reviewed', '2026-05', `${waiting.id}.json`), JSON.stringify(reviewed));
    // A temporary file a killed write left behind.
    await writeFile(join(root, 'pending', '.sub-0000000000000abc.json.1-123.tmp'), '{"half":');
    const store = new FileSubmissionStore(root);
    expect(await store.get(waiting.id)).toEqual(reviewed);
    expect(await store.countPending()).toBe(0);
    expect(readdirSync(join(root, 'pending'))).toEqual([]);
  });

  test('a record that does not parse is skipped and reported; the others are served', async () => {
    const root = folder();
    const good = record();
    await mkdir(join(root, 'pending'), { recursive: true });
    await writeFile(join(root, 'pending', `${good.id}.json`), JSON.stringify(good));
    await writeFile(join(root, 'pending', 'sub-00000000000bad00.json'), '{ not json');
    const warnings: string[] = [];
    const store = new FileSubmissionStore(root, (file, problem) => warnings.push(`${file}: ${problem}`));
    expect((await store.list('all', { limit: 10, offset: 0 })).records).toEqual([good]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('sub-00000000000bad00.json');
  });
});
