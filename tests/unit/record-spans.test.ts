/**
 * The build writes where each record's JSON lies in catalog.json (src/catalog/record-spans.ts),
 * and the server takes those bytes instead of serialising the records again; spans that do not
 * fit the catalog are never used.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CatalogData } from '../../src/catalog/catalog.ts';
import type { RecordBytes } from '../../src/catalog/record-bytes.ts';
import { catalogChunks, recordBytesInFile, type RecordSpans } from '../../src/catalog/record-spans.ts';
import { runPipeline, type BuiltCatalog } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { CATALOG_FILE, RECORD_SPANS_FILE } from '../../src/pipeline/generated-files.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';

const decoder = new TextDecoder();
/** Each record's bytes, as text. */
const texts = (bytes: RecordBytes | undefined): string[] | undefined => bytes && Array.from({ length: bytes.length }, (_, i) => decoder.decode(bytes.view(i)));
let built: BuiltCatalog;
let folder: string;

beforeAll(async () => {
  const result = runPipeline(await readContent('content'), { today: '2026-11-24' });
  if (!result.value) throw new Error('the sample content does not build');
  built = result.value;
  folder = await mkdtemp(join(tmpdir(), 'spans-'));
  await emitCatalog(folder, built);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('record spans', () => {
  test('catalog.json is JSON.stringify of the catalog, and each span is JSON.stringify of its record', async () => {
    const { drafts: _drafts, ...data } = built.data;
    const file = await readFile(join(folder, CATALOG_FILE));
    expect(file.toString('utf8')).toBe(JSON.stringify(data));
    const spans = JSON.parse(await readFile(join(folder, RECORD_SPANS_FILE), 'utf8')) as RecordSpans;
    const bytes = recordBytesInFile(file, JSON.parse(file.toString('utf8')) as CatalogData, spans);
    expect(texts(bytes?.deals)).toEqual(data.deals.map((d) => JSON.stringify(d)));
    expect(texts(bytes?.startups)).toEqual(data.startups.map((s) => JSON.stringify(s)));
    expect(data.deals.length).toBeGreaterThan(5);
  });

  test('a catalog of many MiB comes in chunks of about one MiB that join to its JSON, spans and all', () => {
    const { drafts: _drafts, ...data } = built.data;
    const description = 'é'.repeat(50_000);
    const big = { ...data, deals: Array.from({ length: 60 }, (_, i) => ({ ...data.deals[i % data.deals.length], id: `d-big${i}`, description })) } as Omit<CatalogData, 'drafts'>;
    const spans: RecordSpans = { version: big.version, deals: [], startups: [] };
    const chunks = [...catalogChunks(big, spans)];
    expect(chunks.length).toBeGreaterThan(4);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThan(1.2 * 1024 * 1024);
    const file = Buffer.concat(chunks);
    expect(file.toString()).toBe(JSON.stringify(big));
    expect(texts(recordBytesInFile(file, big as CatalogData, spans)?.deals)).toEqual(big.deals.map((d) => JSON.stringify(d)));
  });

  test('text outside ASCII moves later spans by its UTF-8 length, not its character count', () => {
    const { drafts: _drafts, ...data } = built.data;
    const named = { ...data, site: { ...data.site, name: 'Découvertes — 日本語 🚀' } };
    const spans: RecordSpans = { version: named.version, deals: [], startups: [] };
    const file = Buffer.concat([...catalogChunks(named, spans)]);
    const text = file.toString();
    expect(text).toBe(JSON.stringify(named));
    expect(texts(recordBytesInFile(file, JSON.parse(text) as CatalogData, spans)?.deals)).toEqual(data.deals.map((d) => JSON.stringify(d)));
  });

  test('spans of another version, another count or shifted by a byte are refused', async () => {
    const file = await readFile(join(folder, CATALOG_FILE));
    const data = JSON.parse(file.toString('utf8')) as CatalogData;
    const spans = JSON.parse(await readFile(join(folder, RECORD_SPANS_FILE), 'utf8')) as RecordSpans;
    expect(recordBytesInFile(file, data, spans)).toBeDefined();
    expect(recordBytesInFile(file, data, { ...spans, version: 'another' })).toBeUndefined();
    expect(recordBytesInFile(file, data, { ...spans, deals: spans.deals.slice(2) })).toBeUndefined();
    expect(recordBytesInFile(file, data, { ...spans, deals: spans.deals.map((at) => at + 1) })).toBeUndefined();
    expect(recordBytesInFile(file, data, { ...spans, startups: spans.startups.map((at, i) => (i === 1 ? at - 1 : at)) })).toBeUndefined();
    expect(recordBytesInFile(file, data, undefined)).toBeUndefined();
  });

  test('the server loads each record as the bytes of its JSON, with spans and without', async () => {
    const { drafts: _drafts, ...data } = built.data;
    const expected = data.deals.map((d) => JSON.stringify(d));
    const withSpans = await loadGeneratedCatalog(folder);
    expect(texts(withSpans.dealJson)).toEqual(expected);
    // The file read, not bytes encoded again.
    const file = await readFile(join(folder, CATALOG_FILE));
    expect(Buffer.from(withSpans.dealJson.buffers[0]).equals(file)).toBe(true);
    expect(withSpans.dealJson.buffer.every((which) => which === 0)).toBe(true);
    // A single deal's bytes are found by its slug's position (functions/reads/deals.ts).
    for (const deal of withSpans.deals) expect(withSpans.deals[withSpans.dealPositionBySlug.get(deal.slug) ?? -1]).toBe(deal);
    // A stale spans file (from another build) is ignored: the records are serialised instead.
    await writeFile(join(folder, RECORD_SPANS_FILE), JSON.stringify({ version: 'old', deals: [], startups: [] }));
    const without = await loadGeneratedCatalog(folder);
    expect(texts(without.dealJson)).toEqual(expected);
    expect(without.dealJson.buffers[0].byteLength).toBe(0);
    expect(texts(without.startupJson)).toEqual(data.startups.map((s) => JSON.stringify(s)));
  });
});
