/**
 * "Not there" read as a fallback (src/missing-file.ts), against real files: a file or folder
 * that does not exist gives the fallback; any other failure is thrown on.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ifMissing, isMissing } from '../../src/missing-file.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'missing-file-'));
  await writeFile(join(dir, 'there.txt'), 'text');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('a missing file or folder reads as the fallback; a present one as itself', async () => {
  expect(await readFile(join(dir, 'absent.txt'), 'utf8').catch(ifMissing(undefined))).toBeUndefined();
  expect(await readdir(join(dir, 'absent')).catch(ifMissing<string[]>([]))).toEqual([]);
  expect(await readFile(join(dir, 'there.txt'), 'utf8').catch(ifMissing(undefined))).toBe('text');
});

test('any other failure is thrown on: a folder read as a file, a file listed as a folder', async () => {
  await expect(readFile(dir, 'utf8').catch(ifMissing(undefined))).rejects.toMatchObject({ code: 'EISDIR' });
  await expect(readdir(join(dir, 'there.txt')).catch(ifMissing<string[]>([]))).rejects.toMatchObject({ code: 'ENOTDIR' });
});

test('isMissing looks at the code only, and takes anything', () => {
  expect(isMissing(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toBe(true);
  expect(isMissing(Object.assign(new Error('denied'), { code: 'EACCES' }))).toBe(false);
  expect(isMissing(undefined)).toBe(false);
  expect(isMissing(null)).toBe(false);
  expect(isMissing('ENOENT')).toBe(false);
});
