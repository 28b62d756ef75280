/**
 * The binary postings file (src/catalog/postings-file.ts) holds the build's postings exactly,
 * for any postings; an earlier build's JSON postings load into the same indexes; and a file
 * that is not whole or consistent is refused with a PostingsFileError, never read past its end.
 */
import fc from 'fast-check';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { search, loadSearchIndex, type PostingsLayout } from '../../src/catalog/search.ts';
import { layoutOfJson, PostingsFileError, postingsFileChunks, readPostingsFile, type JsonPostings } from '../../src/catalog/postings-file.ts';
import type { SearchPostings } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { SEARCH_POSTINGS_FILE, SEARCH_POSTINGS_JSON_FILE } from '../../src/pipeline/generated-files.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';

const fileOf = (postings: SearchPostings): Buffer => Buffer.concat([...postingsFileChunks(postings)]);
const bytesOf = (numbers: Int32Array | Float64Array): Buffer => Buffer.from(numbers.buffer, numbers.byteOffset, numbers.byteLength);

/** The same layout: header fields equal, every number the same bits. */
function expectSameLayout(actual: PostingsLayout, expected: PostingsLayout): void {
  expect([actual.refs, actual.terms, actual.stats]).toEqual([expected.refs, expected.terms, expected.stats]);
  for (const part of ['starts', 'docs', 'weights'] as const) expect(bytesOf(actual[part]).equals(bytesOf(expected[part])), part).toBe(true);
}

/** A weight as lunr writes it: BM25 times a boost, rounded to 3 decimals. */
const lunrWeight = fc.integer({ min: 0, max: 5_000_000 }).map((thousandths) => thousandths / 1000);

/** Random JSON postings (an earlier build's form): sorted distinct terms, each in some fields, documents ascending. */
const jsonPostings = fc
  .record({
    documents: fc.integer({ min: 1, max: 40 }),
    fields: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
    terms: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }), { maxLength: 30 }),
  })
  .chain(({ documents, fields, terms }) => {
    const sorted = [...terms].sort();
    const run = fc
      .uniqueArray(fc.integer({ min: 0, max: documents - 1 }), { minLength: 1, maxLength: documents })
      .chain((docs) => fc.tuple(fc.constant([...docs].sort((a, b) => a - b)), fc.array(lunrWeight, { minLength: docs.length, maxLength: docs.length })));
    const perTerm = fc
      .uniqueArray(fc.integer({ min: 0, max: fields.length - 1 }), { maxLength: fields.length })
      .chain((present) => fc.tuple(...present.map((field) => run.map(([docs, weights]): [number, number[], number[]] => [field, docs, weights]))));
    return fc.record({
      refs: fc.constant(Array.from({ length: documents }, (_, i) => `doc-${i}`)),
      terms: fc.constant(sorted),
      postings: fc.tuple(...sorted.map(() => perTerm)),
      stats: fc.constant({ fields, boosts: fields.map(() => 1), averageFieldLength: fields.map(() => 3.5), documentCount: documents }),
    }) as fc.Arbitrary<JsonPostings>;
  });

describe('a postings file', () => {
  test("holds any layout exactly, and a loaded layout has each term's postings where the JSON form had them", () => {
    fc.assert(
      fc.property(jsonPostings, jsonPostings, (dealsJson, startupsJson) => {
        const postings = { deals: layoutOfJson(dealsJson), startups: layoutOfJson(startupsJson) };
        const loaded = readPostingsFile(fileOf(postings));
        expectSameLayout(loaded.deals, postings.deals);
        expectSameLayout(loaded.startups, postings.startups);
        const index = loadSearchIndex(loaded.deals);
        dealsJson.terms.forEach((term, t) => {
          const perField = index.postings.get(term) ?? [];
          expect(perField.length).toBe(dealsJson.stats.fields.length);
          perField.forEach((posting, field) => {
            const [, docs = [], weights = []] = dealsJson.postings[t]?.find(([f]) => f === field) ?? [];
            expect(Array.from(posting.docs)).toEqual(docs);
            expect(Array.from(posting.weights, (weight) => weight / 1000)).toEqual(weights);
          });
        });
      }),
      { numRuns: 150 },
    );
  });

  test('is written a MiB or less at a time, every section aligned, and loads from an unaligned buffer', () => {
    // 300,000 postings: more than two MiB of weights.
    const documents = 100_000;
    const docs = Array.from({ length: documents }, (_, i) => i);
    const big = layoutOfJson({
      refs: docs.map((i) => `d${i}`),
      terms: ['alpha', 'beta', 'gamma'],
      postings: [0, 1, 2].map((t) => [[t % 2, docs, docs.map((i) => (i * 7 + t) / 1000)]]),
      stats: { fields: ['title', 'body'], boosts: [10, 1], averageFieldLength: [2, 9], documentCount: documents },
    });
    const small = layoutOfJson({ refs: ['x'], terms: [], postings: [], stats: { fields: ['name'], boosts: [1], averageFieldLength: [1], documentCount: 1 } });
    const chunks = [...postingsFileChunks({ deals: big, startups: small })];
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.byteLength).toBeLessThanOrEqual(1 << 20);
    const file = Buffer.concat(chunks);
    expect(file.byteLength % 8).toBe(0);
    const unaligned = Buffer.alloc(file.byteLength + 3).subarray(3);
    file.copy(unaligned);
    for (const bytes of [file, unaligned]) {
      const loaded = readPostingsFile(bytes);
      expectSameLayout(loaded.deals, big);
      expectSameLayout(loaded.startups, small);
    }
  });

  const starter = async () => {
    const { value } = runPipeline(await readContent('content'), { today: '2026-11-29' });
    if (!value) throw new Error('the starter content does not build');
    return value;
  };

  test("of the starter catalog answers searches as the build's own postings do", async () => {
    const { postings } = await starter();
    const loaded = readPostingsFile(fileOf(postings));
    expectSameLayout(loaded.deals, postings.deals);
    expectSameLayout(loaded.startups, postings.startups);
    for (const query of ['cloud credits', 'acelerator', 'kubernetse', 'stripe', 'saas marketplace']) {
      expect(search(loadSearchIndex(loaded.deals), query)).toEqual(search(loadSearchIndex(postings.deals), query));
    }
    expect(search(loadSearchIndex(loaded.deals), 'cloud credits').length).toBeGreaterThan(0);
  });

  test("of the first version (lunr's weights as Float64) loads as the same layout", async () => {
    const { postings } = await starter();
    const withFloats = (layout: PostingsLayout): PostingsLayout => ({ ...layout, weights: Float64Array.from(layout.weights, (weight) => weight / 1000) as unknown as Int32Array });
    const first = fileOf({ deals: withFloats(postings.deals), startups: withFloats(postings.startups) });
    first.write('SDPOST1\n', 0, 'latin1');
    const loaded = readPostingsFile(first);
    expectSameLayout(loaded.deals, postings.deals);
    expectSameLayout(loaded.startups, postings.startups);
    expect(postings.deals.weights.length).toBeGreaterThan(100);
  });

  test('that is cut short, of another format or inconsistent is refused with a PostingsFileError', async () => {
    const { postings } = await starter();
    const file = fileOf(postings);
    const headerLength = file.readUInt32LE(8);
    const header = JSON.parse(file.toString('utf8', 12, 12 + headerLength)) as Record<string, { starts: number; docs: number; count: number }>;
    const dataStart = Math.ceil((12 + headerLength) / 8) * 8;
    const refuse = (bytes: Buffer, message: RegExp) => expect(() => readPostingsFile(bytes)).toThrow(message);
    const changed = (at: number, write: (b: Buffer) => void): Buffer => {
      const copy = Buffer.from(file);
      write(copy.subarray(at));
      return copy;
    };

    refuse(Buffer.from('{"deals":{}}'), /not a search postings file/);
    refuse(file.subarray(0, 10), /not a search postings file/);
    refuse(file.subarray(0, file.byteLength - 8), /truncated/);
    refuse(
      changed(8, (b) => b.writeUInt32LE(headerLength - 1)),
      /unreadable header|another shape/,
    );
    refuse(
      changed(8, (b) => b.writeUInt32LE(0xffffffff)),
      /truncated or its header is wrong/,
    );
    const deals = header.deals as { starts: number; docs: number; count: number };
    refuse(
      changed(dataStart + deals.starts + 4, (b) => b.writeInt32LE(-1)),
      /inconsistent sections/,
    );
    refuse(
      changed(dataStart + deals.docs, (b) => b.writeInt32LE(1_000_000)),
      /names a document/,
    );
    refuse(
      changed(dataStart + deals.docs, (b) => b.writeInt32LE(-5)),
      /names a document/,
    );

    // A header whose statistics a write could not index with, or whose terms prefix search could not find.
    const { stats } = postings.deals;
    for (const bad of [
      { ...stats, boosts: undefined },
      { ...stats, boosts: stats.boosts.slice(1) },
      { ...stats, averageFieldLength: stats.averageFieldLength.map(() => 'x') },
      { ...stats, documentCount: 'many' },
    ]) {
      refuse(fileOf({ ...postings, deals: { ...postings.deals, stats: bad as unknown as typeof stats } }), /another shape/);
    }
    const [first, second] = postings.deals.terms;
    refuse(fileOf({ ...postings, deals: { ...postings.deals, terms: [second as string, first as string, ...postings.deals.terms.slice(2)] } }), /terms out of order/);
    refuse(fileOf({ ...postings, deals: { ...postings.deals, terms: [first as string, first as string, ...postings.deals.terms.slice(2)] } }), /terms out of order/);
  });

  test("an earlier build's JSON postings that do not fit their terms and fields are refused too", () => {
    const json: JsonPostings = { refs: ['a', 'b'], terms: ['x'], postings: [[[0, [0, 1], [1.5, 2]]]], stats: { fields: ['title'], boosts: [1], averageFieldLength: [1], documentCount: 2 } };
    expect(Array.from(layoutOfJson(json).docs)).toEqual([0, 1]);
    expect(() => layoutOfJson({ ...json, postings: [[[1, [0], [1]]]] })).toThrow(PostingsFileError);
    expect(() => layoutOfJson({ ...json, postings: [[[0, [0, 1], [1]]]] })).toThrow(PostingsFileError);
    expect(() => layoutOfJson({ ...json, postings: [[], [[0, [0], [1]]]] })).toThrow(PostingsFileError);
    // Weights are kept as 32-bit thousandths: one that is not a weight lunr writes is refused, not wrapped.
    expect(Array.from(layoutOfJson(json).weights)).toEqual([1500, 2000]);
    expect(() => layoutOfJson({ ...json, postings: [[[0, [0, 1], [1.5, 3e6]]]] })).toThrow(/weight out of range/);
    expect(() => layoutOfJson({ ...json, postings: [[[0, [0, 1], [-1, 2]]]] })).toThrow(PostingsFileError);
  });

  test('with random bytes changed or cut off loads or is refused with a PostingsFileError, nothing else', async () => {
    const { postings } = await starter();
    const file = fileOf(postings);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: file.byteLength - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat({ max: file.byteLength }), (edits, keep) => {
        const bytes = Buffer.from(file.subarray(0, Math.max(keep, 1)));
        for (const [at, value] of edits) if (at < bytes.byteLength) bytes[at] = value;
        try {
          readPostingsFile(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(PostingsFileError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** A layout in the JSON form builds before the binary file wrote. */
function jsonOf(layout: PostingsLayout): JsonPostings {
  const fields = layout.stats.fields.length;
  const postings = layout.terms.map((_, t) => {
    const triples: [number, number[], number[]][] = [];
    for (let field = 0; field < fields; field++) {
      const [start, end] = [layout.starts[t * fields + field] as number, layout.starts[t * fields + field + 1] as number];
      if (end > start) triples.push([field, Array.from(layout.docs.subarray(start, end)), Array.from(layout.weights.subarray(start, end), (weight) => weight / 1000)]);
    }
    return triples;
  });
  return { refs: layout.refs, terms: layout.terms, postings, stats: layout.stats };
}

describe('a generated folder', () => {
  const folders: string[] = [];
  afterAll(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

  test("has the binary postings after a build, or an earlier build's JSON postings, and serves the same searches from either", async () => {
    const { value } = runPipeline(await readContent('content'), { today: '2026-11-29' });
    if (!value) throw new Error('the starter content does not build');
    const dir = await mkdtemp(join(tmpdir(), 'postings-file-'));
    folders.push(dir);
    await writeFile(join(dir, SEARCH_POSTINGS_JSON_FILE), 'stale');
    await emitCatalog(dir, value);
    // The build removes a stale JSON file beside the binary one.
    await expect(readFile(join(dir, SEARCH_POSTINGS_JSON_FILE))).rejects.toThrow(/ENOENT/);
    const fromBinary = await loadGeneratedCatalog(dir);

    // What a build before the binary file wrote: per term, a [field, docs, weights] triple per field it is in.
    await rm(join(dir, SEARCH_POSTINGS_FILE));
    await writeFile(join(dir, SEARCH_POSTINGS_JSON_FILE), JSON.stringify({ deals: jsonOf(value.postings.deals), startups: jsonOf(value.postings.startups) }));
    const fromJson = await loadGeneratedCatalog(dir);
    for (const query of ['cloud credits', 'analytics', 'grant']) {
      expect(search(fromBinary.dealSearch.index, query)).toEqual(search(fromJson.dealSearch.index, query));
      expect(search(fromBinary.startupSearch.index, query)).toEqual(search(fromJson.startupSearch.index, query));
    }
    expect(search(fromBinary.dealSearch.index, 'cloud credits').length).toBeGreaterThan(0);
  });
});
