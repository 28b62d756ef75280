/**
 * The build's files as the serve process reads them ahead of the server's modules
 * (functions/reads/catalog-files.ts): whole, the optional ones absent as undefined, and a
 * missing catalog a rejection the caller meets when it awaits, not an unhandled one meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { readCatalogFiles } from '../../functions/reads/catalog-files.ts';
import { CATALOG_FILE, DRAFTS_FILE, RECORD_SPANS_FILE, SEARCH_POSTINGS_FILE, SEARCH_POSTINGS_JSON_FILE } from '../../src/pipeline/generated-files.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const generatedDir = (files: Record<string, string | Buffer>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-files-'));
  dirs.push(dir);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  return dir;
};

test('every file whole (several MB read in one go), the optional ones undefined when absent', async () => {
  const catalog = randomBytes(5 * 1024 * 1024 + 3);
  const postings = randomBytes(1024 * 1024);
  const files = await readCatalogFiles(generatedDir({ [CATALOG_FILE]: catalog, [SEARCH_POSTINGS_FILE]: postings }));
  expect(files.catalog.equals(catalog)).toBe(true);
  expect('binary' in files.postings && files.postings.binary.equals(postings)).toBe(true);
  expect([files.spans, files.drafts]).toEqual([undefined, undefined]);
});

test('spans, drafts and the JSON postings of an older build are read as text', async () => {
  const files = await readCatalogFiles(
    generatedDir({ [CATALOG_FILE]: '{}', [RECORD_SPANS_FILE]: '{"deals":[]}', [DRAFTS_FILE]: '{"deals":[],"startups":[]}', [SEARCH_POSTINGS_JSON_FILE]: '{"deals":{}}' }),
  );
  expect(files).toMatchObject({ spans: '{"deals":[]}', drafts: '{"deals":[],"startups":[]}', postings: { json: '{"deals":{}}' } });
  expect(files.catalog.toString()).toBe('{}');
});

test('a missing catalog rejects when awaited, and is not an unhandled rejection before', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const files = readCatalogFiles(generatedDir({}));
    // The caller awaits later, as the serve process does after importing the server.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(files).rejects.toMatchObject({ code: 'ENOENT' });
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
