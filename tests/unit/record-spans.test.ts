/**
 * The build writes where each record's JSON lies in catalog.json (src/catalog/record-spans.ts),
 * and the server takes those bytes instead of serialising the records again; spans that do not
 * fit the catalog are never used.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordJson, type CatalogData } from '../../src/catalog/catalog.ts';
import { catalogChunks, recordViews, type RecordSpans } from '../../src/catalog/record-spans.ts';
import { runPipeline, type BuiltCatalog } from '../../src/pipeline/build.ts';
import { CATALOG_FILE, emitCatalog, RECORD_SPANS_FILE } from '../../src/pipeline/emit.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';

const decoder = new TextDecoder();
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
    const views = recordViews(file, JSON.parse(file.toString('utf8')) as CatalogData, spans);
    expect(views?.deals.map((v) => decoder.decode(v))).toEqual(data.deals.map((d) => JSON.stringify(d)));
    expect(views?.startups.map((v) => decoder.decode(v))).toEqual(data.startups.map((s) => JSON.stringify(s)));
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
    const views = recordViews(file, big as CatalogData, spans);
    expect(views?.deals.map((v) => decoder.decode(v))).toEqual(big.deals.map((d) => JSON.stringify(d)));
  });

  test('text outside ASCII moves later spans by its UTF-8 length, not its character count', () => {
    const { drafts: _drafts, ...data } = built.data;
    const named = { ...data, site: { ...data.site, name: 'Découvertes — 日本語 🚀' } };
    const spans: RecordSpans = { version: named.version, deals: [], startups: [] };
    const file = Buffer.concat([...catalogChunks(named, spans)]);
    const text = file.toString();
    expect(text).toBe(JSON.stringify(named));
    const views = recordViews(file, JSON.parse(text) as CatalogData, spans);
    expect(views?.deals.map((v) => decoder.decode(v))).toEqual(data.deals.map((d) => JSON.stringify(d)));
  });

  test('spans of another version, another count or shifted by a byte are refused', async () => {
    const file = await readFile(join(folder, CATALOG_FILE));
    const data = JSON.parse(file.toString('utf8')) as CatalogData;
    const spans = JSON.parse(await readFile(join(folder, RECORD_SPANS_FILE), 'utf8')) as RecordSpans;
    expect(recordViews(file, data, spans)).toBeDefined();
    expect(recordViews(file, data, { ...spans, version: 'another' })).toBeUndefined();
    expect(recordViews(file, data, { ...spans, deals: spans.deals.slice(2) })).toBeUndefined();
    expect(recordViews(file, data, { ...spans, deals: spans.deals.map((at) => at + 1) })).toBeUndefined();
    expect(recordViews(file, data, undefined)).toBeUndefined();
  });

  test('the server loads each record as the bytes of its JSON, with spans and without', async () => {
    const { drafts: _drafts, ...data } = built.data;
    const expected = data.deals.map((d) => JSON.stringify(d));
    const withSpans = await loadGeneratedCatalog(folder);
    expect(withSpans.dealJson.map((b) => decoder.decode(b))).toEqual(expected);
    expect(decoder.decode(recordJson(withSpans.deals[0] as object))).toBe(expected[0]);
    // Views of the file read, not bytes encoded again.
    const fileBytes = (await readFile(join(folder, CATALOG_FILE))).byteLength;
    expect(withSpans.dealJson[0]?.buffer.byteLength).toBe(fileBytes);
    // A stale spans file (from another build) is ignored: the records are serialised instead.
    await writeFile(join(folder, RECORD_SPANS_FILE), JSON.stringify({ version: 'old', deals: [], startups: [] }));
    const without = await loadGeneratedCatalog(folder);
    expect(without.dealJson.map((b) => decoder.decode(b))).toEqual(expected);
    expect(without.dealJson[0]?.buffer.byteLength).toBe(without.dealJson[0]?.byteLength);
    expect(without.startupJson.map((b) => decoder.decode(b))).toEqual(data.startups.map((s) => JSON.stringify(s)));
  });
});
