/**
 * Answers assembled from prepared bytes (functions/http/answer.ts, issue 19) are the bytes
 * that serialising the answer object gives, over thousands of random queries on a generated
 * catalog; and their ETags are exact: one body per ETag, a new one when the catalog changes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCatalog, type Catalog } from '../../src/catalog/catalog.ts';
import { RecordBytes } from '../../src/catalog/record-bytes.ts';
import { findDeal, listDeals } from '../../src/catalog/deals-query.ts';
import { listStartups } from '../../src/catalog/startups-query.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { DEAL_LIST_PARAMS, DEAL_SORTS, parseQuery, STARTUP_LIST_PARAMS } from '../../src/schemas/query.ts';
import { REGIONS, STAGES } from '../../src/schemas/program.ts';
import { dealsAnswer } from '../../functions/reads/deals.ts';
import { startupsAnswer } from '../../functions/reads/startups.ts';
import { ApiError } from '../../functions/http/errors.ts';
import { assembledList, copiedPieces, type Answer } from '../../functions/http/answer.ts';
import { ByteRuns, payloadBytes } from '../../functions/http/bytes-response.ts';
import { seededRandom } from '../../scripts/seeded-random.ts';

const QUERIES = 2000;
const decoder = new TextDecoder();
let folder: string;
let catalog: Catalog;
/** The same catalog as the server loads it from generated/: each record's bytes a view of catalog.json. */
let loaded: Catalog;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'assembled-'));
  const content = join(folder, 'content');
  execFileSync(process.execPath, ['scripts/generate.ts', '--deals', '800', '--startups', '1500', '--out', content, '--seed', '7'], { stdio: 'ignore' });
  const built = runPipeline(await readContent(content), { today: '2026-11-24' });
  if (!built.value) throw new Error(`generated content does not build: ${JSON.stringify(built.diagnostics.slice(0, 3))}`);
  catalog = createCatalog(built.value.data, built.value.postings);
  await emitCatalog(join(folder, 'generated'), built.value);
  loaded = await loadGeneratedCatalog(join(folder, 'generated'));
}, 120_000);

afterAll(() => rm(folder, { recursive: true, force: true }));

const random = seededRandom(19);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const maybe = (share: number) => random() < share;

/** A word of some record's text, sometimes with a letter dropped (a typo). */
function someWords(texts: readonly string[]): string {
  const words = pick(texts)
    .split(/\s+/)
    .filter((w) => w.length > 2);
  const chosen = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(words.length ? words : ['cloud']));
  return chosen.map((w) => (maybe(0.25) && w.length > 4 ? w.slice(0, 2) + w.slice(3) : w)).join(' ');
}

function dealParams(): URLSearchParams {
  const params = new URLSearchParams();
  if (maybe(0.5)) params.set('search', someWords(catalog.deals.map((d) => `${d.title} ${d.description}`)));
  if (maybe(0.3)) params.set('category', pick(catalog.categories.deals).slug);
  if (maybe(0.15)) params.set('status', pick(['active', 'expired', 'all']));
  if (maybe(0.15)) params.set('scope', pick(['deals', 'programs', 'all']));
  if (maybe(0.1)) params.set('featured', 'true');
  if (maybe(0.1)) params.set('recommended', 'true');
  if (maybe(0.2)) params.set('sort', pick(DEAL_SORTS));
  if (maybe(0.1)) params.set('stage', pick(STAGES));
  if (maybe(0.1)) params.set('region', pick(REGIONS));
  if (maybe(0.05)) params.set('equity', 'none');
  if (maybe(0.6)) params.set('limit', String(1 + Math.floor(random() * 60)));
  return params;
}

function startupParams(): URLSearchParams {
  const params = new URLSearchParams();
  if (maybe(0.3)) params.set('search', someWords(catalog.startups.map((s) => `${s.name} ${s.description}`)));
  if (maybe(0.4)) params.set('category', pick(catalog.startups).category);
  if (maybe(0.2)) params.set('country', pick(catalog.startups).country ?? 'US');
  if (maybe(0.3)) params.set('minRevenue', String(Math.floor(random() * 500_000)));
  if (maybe(0.2)) params.set('maxRevenue', String(Math.floor(random() * 2_000_000)));
  if (maybe(0.3)) params.set('forSale', pick(['true', 'false']));
  if (maybe(0.1)) params.set('featured', 'true');
  return params;
}

/** The answer body as serialising the whole answer object gives it (the path before issue 19). */
function dealsReference(params: URLSearchParams): string {
  const parsed = parseQuery(DEAL_LIST_PARAMS, params);
  if (!parsed.ok) throw new Error('unreachable: the answer parsed it');
  const { positions, stats } = listDeals(catalog, parsed.value);
  return JSON.stringify({ success: true, deals: positions.map((p) => catalog.deals[p]), count: positions.length, stats });
}

function startupsReference(params: URLSearchParams): string {
  const parsed = parseQuery(STARTUP_LIST_PARAMS, params);
  if (!parsed.ok) throw new Error('unreachable: the answer parsed it');
  const { positions, total } = listStartups(catalog, parsed.value);
  return JSON.stringify({ success: true, startups: positions.map((p) => catalog.startups[p]), total });
}

/** Check `count` random queries against the reference; every ETag names one body. */
function compareMany(next: () => URLSearchParams, answer: (params: URLSearchParams) => Answer, reference: (params: URLSearchParams) => string): { compared: number; nonEmpty: number } {
  const bodyByEtag = new Map<string, string>();
  let compared = 0;
  let nonEmpty = 0;
  for (let i = 0; i < QUERIES; i++) {
    const params = next();
    let given: Answer;
    try {
      given = answer(params);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) continue;
      throw error;
    }
    const body = decoder.decode(payloadBytes(given.body));
    expect(body, params.toString()).toBe(reference(params));
    const known = bodyByEtag.get(given.etag);
    if (known !== undefined) expect(known, `one body per ETag (${params.toString()})`).toBe(body);
    bodyByEtag.set(given.etag, body);
    compared++;
    if (!/"(deals|startups)":\[\]/.test(body)) nonEmpty++;
  }
  return { compared, nonEmpty };
}

describe('answers assembled from prepared bytes', () => {
  test(`GET /deals: ${QUERIES} random queries give the bytes of the serialised answer`, () => {
    const { compared, nonEmpty } = compareMany(dealParams, (params) => dealsAnswer(catalog, params), dealsReference);
    // The queries reach real answers, not only empty ones or 400s.
    expect(compared).toBeGreaterThan(QUERIES * 0.9);
    expect(nonEmpty).toBeGreaterThan(compared / 3);
  });

  test(`GET /startups: ${QUERIES} random queries give the bytes of the serialised answer`, () => {
    const { compared, nonEmpty } = compareMany(startupParams, (params) => startupsAnswer(catalog, params), startupsReference);
    expect(compared).toBe(QUERIES);
    expect(nonEmpty).toBeGreaterThan(compared / 3);
  });

  test('a filter without a search: stats counted once answer the later requests exactly as counting again would', () => {
    let remembered = 0;
    for (let i = 0; i < 1000; i++) {
      const params = dealParams();
      params.delete('search');
      const parsed = parseQuery(DEAL_LIST_PARAMS, params);
      if (!parsed.ok) continue;
      listDeals(catalog, parsed.value);
      const again = listDeals(catalog, parsed.value);
      // A copy of the catalog is another catalog: nothing is remembered for it, everything is counted.
      const counted = listDeals({ ...catalog }, parsed.value);
      expect(again, params.toString()).toEqual(counted);
      if (Object.isFrozen(again.stats)) remembered++;
    }
    expect(remembered).toBeGreaterThan(500);
  });

  test('a lookup by slug or id is the serialised { success, deal }, with the ETag of its body', () => {
    for (const deal of catalog.deals.slice(0, 300)) {
      const params = new URLSearchParams(maybe(0.5) ? { slug: deal.slug } : { id: deal.id });
      const given = dealsAnswer(catalog, params);
      const expected = JSON.stringify({ success: true, deal: findDeal(catalog, { slug: deal.slug }) });
      expect(decoder.decode(payloadBytes(given.body))).toBe(expected);
      expect(dealsAnswer(catalog, params).etag).toBe(given.etag);
    }
  });

  test('the same query on a changed catalog has a new ETag; on the same catalog, the same one', () => {
    const params = new URLSearchParams('category=' + (catalog.deals[0]?.category ?? '') + '&limit=5');
    const first = dealsAnswer(catalog, params);
    expect(dealsAnswer(catalog, params).etag).toBe(first.etag);
    const changed = { ...catalog, version: `${catalog.version}-next` };
    expect(dealsAnswer(changed, params).etag).not.toBe(first.etag);
    // A different limit lists fewer deals: another body, another ETag.
    expect(dealsAnswer(catalog, new URLSearchParams(params.toString().replace('limit=5', 'limit=4'))).etag).not.toBe(first.etag);
  });

  test("a list's ETag is SHA-1 of the version, head, positions (4 bytes each, little-endian) and tail, NUL between: the validator clients already hold stays valid", () => {
    const random = seededRandom(41);
    const objects = Array.from({ length: 50 }, (_, i) => ({ id: i, title: `déal ${i} ☃` }));
    const records = RecordBytes.of(objects);
    for (let run = 0; run < 200; run++) {
      const positions = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * objects.length));
      const version = run % 2 ? 'c0ffee' : '';
      const head = run % 3 ? '{"success":true,"deals":[' : '{"ünïcode ☃":[';
      const tail = `],"count":${positions.length},"stats":{"naïve":${run}}}`;
      const bytes = Buffer.alloc(4 * positions.length);
      positions.forEach((position, i) => bytes.writeInt32LE(position, 4 * i));
      const expected = createHash('sha1').update(version).update('\0').update(head).update('\0').update(bytes).update('\0').update(tail).digest('base64url').slice(0, 22);
      const answer = assembledList(version, head, records, positions, tail, {});
      expect(answer.etag).toBe(`"${expected}"`);
      expect(Buffer.from(payloadBytes(answer.body)).toString()).toBe(`${head}${positions.map((p) => JSON.stringify(objects[p])).join(',')}${tail}`);
    }
  });

  test('a huge list is sent as runs of the catalog file, byte for byte the joined answer, with the same ETag', () => {
    expect(loaded.deals.map((d) => d.slug)).toEqual(catalog.deals.map((d) => d.slug));
    const lists: { records: RecordBytes; positions: number[] }[] = [];
    const every = (records: RecordBytes): number[] => Array.from({ length: records.length }, (_, i) => i);
    for (let i = 0; i < 300; i++) {
      const parsed = parseQuery(DEAL_LIST_PARAMS, dealParams());
      if (parsed.ok) lists.push({ records: loaded.dealJson, positions: listDeals(loaded, parsed.value).positions });
      const startups = parseQuery(STARTUP_LIST_PARAMS, startupParams());
      if (startups.ok) lists.push({ records: loaded.startupJson, positions: listStartups(loaded, startups.value).positions });
    }
    // The default lists, every record, none, and positions out of file order.
    lists.push({ records: loaded.dealJson, positions: listDeals(loaded, {}).positions });
    lists.push({ records: loaded.startupJson, positions: every(loaded.startupJson) });
    lists.push({ records: loaded.startupJson, positions: [] });
    lists.push({
      records: loaded.dealJson,
      positions: every(loaded.dealJson)
        .filter(() => maybe(0.5))
        .reverse(),
    });
    // Records serialised (without a file), and a file's records with some serialised after a write.
    lists.push({ records: catalog.dealJson, positions: every(catalog.dealJson).filter(() => maybe(0.7)) });
    const written = loaded.deals.map((deal) => (maybe(0.2) ? { ...deal } : deal));
    const afterWrite = RecordBytes.of(written, { records: loaded.deals, bytes: loaded.dealJson });
    expect(afterWrite.buffer.some((which) => which === 0) && afterWrite.buffer.some((which) => which === 1)).toBe(true);
    lists.push({ records: afterWrite, positions: every(afterWrite) });
    lists.push({ records: afterWrite, positions: every(afterWrite).filter(() => maybe(0.5)) });
    // Writes in a row: records serialised by one write and kept by the next, in a list reordered.
    let [records, bytes]: [object[], RecordBytes] = [written, afterWrite];
    for (let write = 0; write < 5; write++) {
      const next = records.filter(() => maybe(0.95)).map((record) => (maybe(0.1) ? { ...record } : record));
      if (maybe(0.3)) next.reverse();
      [records, bytes] = [next, RecordBytes.of(next, { records, bytes })];
      lists.push({ records: bytes, positions: every(bytes) }, { records: bytes, positions: every(bytes).filter(() => maybe(0.5)) });
    }
    const never = Number.POSITIVE_INFINITY;
    for (const { records, positions } of lists) {
      const head = '{"items":[';
      const tail = `],"n":${positions.length}}`;
      const joined = assembledList('v1', head, records, positions, tail, {}, never, 0, never);
      const runs = assembledList('v1', head, records, positions, tail, {}, 0, 0);
      const pieces = assembledList('v1', head, records, positions, tail, {}, never, 0, 0);
      expect(joined.body).toBeInstanceOf(Uint8Array);
      for (const other of [runs, pieces]) {
        expect(other.body).toBeInstanceOf(ByteRuns);
        expect(Buffer.from(payloadBytes(other.body)).equals(Buffer.from(joined.body as Uint8Array)), `${positions.length} records`).toBe(true);
        expect(other.body.byteLength).toBe(joined.body.byteLength);
        expect(other.etag).toBe(joined.etag);
      }
      expect((pieces.body as ByteRuns).copies).toBe(true);
      // Any piece size, down to a byte: the same bytes, every piece full but the last.
      // Pieces of a byte or a few only for short lists: each piece is an allocation.
      for (const size of joined.body.byteLength < 8192 ? [1, 7, 1000] : [997, 64 * 1024]) {
        const made = [...copiedPieces(Buffer.from(head), records, positions, Buffer.from(tail), joined.body.byteLength, size)];
        expect(Buffer.concat(made).equals(Buffer.from(joined.body as Uint8Array)), `${positions.length} records in pieces of ${size}`).toBe(true);
        expect(made.slice(0, -1).every((piece) => piece.byteLength === size)).toBe(true);
      }
    }
    // Consecutive records of the file are one run: every startup is one view, with the head and tail.
    const everyStartup = assembledList('v1', '[', loaded.startupJson, every(loaded.startupJson), ']', {}, 0).body as ByteRuns;
    expect([...everyStartup.pieces()]).toHaveLength(3);
    expect(everyStartup.copies).toBe(false);
    // Records scattered through the file make short runs: joined instead, or copied in pieces when the answer is large.
    const everyOther = every(loaded.startupJson).filter((i) => i % 2 === 0);
    expect(assembledList('v1', '[', loaded.startupJson, everyOther, ']', {}, 0, 64 * 1024, never).body).toBeInstanceOf(Uint8Array);
    expect((assembledList('v1', '[', loaded.startupJson, everyOther, ']', {}, 0, 64 * 1024, 0).body as ByteRuns).copies).toBe(true);
  });

  test('records copied as one run only when they are neighbours in the same bytes', () => {
    // Record 2 lies in the serialised bytes right where record 1 lies in the file: same offsets, other bytes.
    const file = Buffer.from('[{"x":1},{"y":2}]');
    const serialised = Buffer.from(',,,,,,,,,{"z":3}');
    const records = { buffers: [file, serialised], buffer: Uint8Array.from([0, 0, 1]), start: Uint32Array.from([1, 9, 9]), end: Uint32Array.from([8, 16, 16]) } as unknown as RecordBytes;
    const text = (positions: number[]) => Buffer.concat([...copiedPieces(Buffer.from('['), records, positions, Buffer.from(']'), 2 + 16, 64 * 1024)]).toString();
    expect(text([0, 2])).toBe('[{"x":1},{"z":3}]');
    expect(text([0, 1])).toBe('[{"x":1},{"y":2}]');
    expect(text([1, 0])).toBe('[{"y":2},{"x":1}]');
  });

  test('a large answer of scattered records is copied a piece at a time, as it is read', () => {
    const everyOther = Array.from({ length: loaded.startupJson.length }, (_, i) => i).filter((i) => i % 2 === 0);
    const answer = assembledList('v1', '[', loaded.startupJson, everyOther, ']', {}, Number.POSITIVE_INFINITY, 0, 0);
    const body = answer.body as ByteRuns;
    expect(body.byteLength).toBeGreaterThan(2 * 64 * 1024);
    // Nothing is made until read; each read makes the next piece only.
    const reading = body.pieces()[Symbol.iterator]();
    const first = reading.next().value as Uint8Array;
    expect(first.byteLength).toBe(64 * 1024);
    // Read twice, the same bytes (a cached answer is sent again and again).
    expect(Buffer.from(payloadBytes(body)).equals(Buffer.from(payloadBytes(body)))).toBe(true);
    expect(Buffer.from(payloadBytes(body)).subarray(0, first.byteLength).equals(first)).toBe(true);
  });
});
