/**
 * A loaded record reads its description from the catalog file (src/catalog/text-in-file.ts):
 * whatever the text, the record reads, spreads, serialises and compares as the one parsed, and a
 * description that cannot be placed for sure stays the record's own.
 */
import fc from 'fast-check';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CatalogData } from '../../src/catalog/catalog.ts';
import { catalogChunks, readCatalogFile, type RecordSpans } from '../../src/catalog/record-spans.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { CATALOG_FILE } from '../../src/pipeline/generated-files.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';

type Row = Record<string, unknown> & { description?: string };

/** The records as the server loads them: written as the build writes them, then read record by record. */
function loaded(deals: Row[]): { parsed: Row[]; records: Row[] } {
  const data = { version: 'v1', site: {}, categories: { deals: [], startups: [] }, deals, startups: [] } as unknown as CatalogData;
  const spans: RecordSpans = { version: 'v1', deals: [], startups: [] };
  const file = Buffer.concat([...catalogChunks(data, spans)]);
  const parsed = (JSON.parse(file.toString('utf8')) as { deals: Row[] }).deals;
  const read = readCatalogFile(file, spans);
  if (!read.json) throw new Error('the spans do not fit');
  return { parsed, records: read.data.deals as Row[] };
}

const reads = (record: Row): boolean => typeof Object.getOwnPropertyDescriptor(record, 'description')?.get === 'function';
/** Text that is hard on a scanner: quotes, backslashes at the end, the key itself, text outside ASCII. */
const awkward = fc.string({ unit: fc.constantFrom('"', '\\', 'a', ' ', '\n', '\u0000', 'é', '🚀', '"description":"', '\\"', ':', ',', '{', '}'), maxLength: 40 });

describe('descriptions read from the catalog file', () => {
  test('any text, before or in the description, reads back the same, and the record serialises as parsed', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ title: awkward, description: fc.option(awkward, { nil: undefined }), tags: fc.array(awkward, { maxLength: 2 }) }), { maxLength: 8 }), (rows) => {
        const deals = rows.map((row, i) => ({ id: `d${i}`, title: row.title, ...(row.description === undefined ? {} : { description: row.description }), tags: row.tags }));
        const { parsed, records } = loaded(deals);
        records.forEach((record, i) => {
          const was = parsed[i] as Row;
          expect(record.description).toBe(was.description);
          expect(reads(record)).toBe(was.description !== undefined);
          expect(JSON.stringify(record)).toBe(JSON.stringify(was));
          expect(Object.keys(record)).toEqual(Object.keys(was));
          expect({ ...record }).toEqual(was);
        });
      }),
      { numRuns: 500 },
    );
  });

  test('a record with an object before its description keeps its own, since the object could hold an earlier key', () => {
    const { parsed, records } = loaded([
      { id: 'a', meta: { description: 'inner' }, description: 'outer' },
      { id: 'b', title: 'x', description: 'plain' },
    ]);
    expect(reads(records[0] as Row)).toBe(false);
    expect(records[0]).toEqual(parsed[0]);
    expect(records[0]?.description).toBe('outer');
    expect(reads(records[1] as Row)).toBe(true);
    expect(records[1]?.description).toBe('plain');
  });

  test('a field named __proto__ stays a field of the copy, as JSON.parse made it, never its prototype', () => {
    const text = '{"id":"a","description":"text","__proto__":{"polluted":true}}';
    const { parsed, records } = loaded([JSON.parse(text) as Row]);
    const [record] = records as [Row];
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(['id', 'description', '__proto__']);
    expect(JSON.stringify(record)).toBe(JSON.stringify(parsed[0]));
    expect(record.description).toBe('text');
    expect(({} as Row).polluted).toBeUndefined();
  });

  test('spans that do not tile the lists: the whole text is parsed, and the records keep their descriptions', () => {
    const deals = [
      { id: 'a', description: 'first' },
      { id: 'b', description: 'second' },
      { id: 'c', description: 'third' },
    ];
    const data = { version: 'v1', site: {}, categories: { deals: [], startups: [] }, deals, startups: [] } as unknown as CatalogData;
    const spans: RecordSpans = { version: 'v1', deals: [], startups: [] };
    const file = Buffer.concat([...catalogChunks(data, spans)]);
    const whole = JSON.parse(file.toString('utf8')) as CatalogData;
    const at = spans.deals;
    const wrong: RecordSpans[] = [
      { ...spans, version: 'v2' },
      // Two records as one span, or one left out: each neighbour still a record of the list.
      { ...spans, deals: [at[0], at[3], at[4], at[5]] as number[] },
      { ...spans, deals: at.slice(2) },
      { ...spans, deals: at.map((n) => n + 1) },
      // The right spans under the wrong list: the file's startups are empty, its deals are not.
      { ...spans, deals: [], startups: at },
    ];
    for (const bad of wrong) {
      const read = readCatalogFile(file, bad);
      expect(read.data).toEqual(whole);
      expect((read.data.deals as Row[]).some(reads)).toBe(false);
    }
    const good = readCatalogFile(file, spans);
    expect(good.data).toEqual(whole);
    expect(good.json?.deals.length).toBe(3);
    expect((good.data.deals as Row[]).every(reads)).toBe(true);
    expect(readCatalogFile(file, undefined).json).toBeUndefined();
  });

  test('setting a description makes it the record own again, for that record only', () => {
    const { records } = loaded([
      { id: 'a', description: 'first' },
      { id: 'b', description: 'second' },
    ]);
    const [a, b] = records as [Row, Row];
    a.description = 'changed';
    expect(a.description).toBe('changed');
    expect(reads(a)).toBe(false);
    expect(Object.keys(a)).toEqual(['id', 'description']);
    expect(b.description).toBe('second');
    expect(reads(b)).toBe(true);
    // The getter given to another object does not read some other part of the file.
    const stray = Object.defineProperty({}, 'description', Object.getOwnPropertyDescriptor(b, 'description') as PropertyDescriptor) as Row;
    expect(() => stray.description).toThrow(TypeError);
  });

  test('the loaded sample catalog reads every description from its file, each the same as parsed', async () => {
    const built = runPipeline(await readContent('content'), { today: '2026-11-24' }).value;
    if (!built) throw new Error('the sample content does not build');
    const folder = await mkdtemp(join(tmpdir(), 'text-in-file-'));
    try {
      await emitCatalog(folder, built);
      const catalog = await loadGeneratedCatalog(folder);
      const parsed = JSON.parse(await readFile(join(folder, CATALOG_FILE), 'utf8')) as { deals: Row[]; startups: Row[] };
      const all = [...catalog.deals, ...catalog.startups] as Row[];
      expect(all.filter(reads).length).toBe([...parsed.deals, ...parsed.startups].filter((r) => r.description !== undefined).length);
      expect(all.filter(reads).length).toBeGreaterThan(10);
      expect(catalog.deals.map((d) => d.description)).toEqual(parsed.deals.map((d) => d.description));
      expect(catalog.startups.map((s) => s.description)).toEqual(parsed.startups.map((s) => s.description));
      // The lookup maps hold the same objects as the lists.
      const first = catalog.deals[0];
      expect(first && catalog.dealBySlug.get(first.slug)).toBe(first);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
