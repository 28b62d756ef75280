/**
 * Where each deal's and startup's JSON lies in `generated/catalog.json`, written by the build
 * next to it, so the server takes each record's answer bytes as a view of the file it read
 * instead of serialising and encoding every record again at start (issue 19: the runtime loads
 * what the build prepared; 170 ms of a 1.9 s start at 5,000 deals and 10,000 startups). The
 * catalog text is exactly `JSON.stringify(data)`, and a record's span is exactly
 * `JSON.stringify(record)`: parsing and serialising JSON gives back the text it parsed.
 */
import { createHash } from 'node:crypto';
import { DEAL_STATUSES, type Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import type { CatalogData } from './catalog.ts';
import { jsonChunks } from './utf8-chunks.ts';
import { RecordBytes } from './record-bytes.ts';
import { RecordsInFile } from './records-in-file.ts';
import { readingFromFile } from './text-in-file.ts';

/** Byte offsets in `catalog.json`: record i of a list runs from `at[2i]` to `at[2i + 1]`. */
export interface RecordSpans {
  version: string;
  deals: number[];
  startups: number[];
  /** None in a build from before them: the server then parses every record before it answers. */
  summaries?: RecordSummaries;
}

/**
 * What the server derives from every record at start (catalog.ts: each category's positions, the
 * deal facts, which record each search document is), written by the build beside the spans, so
 * that the server answers before it has parsed the records (records-in-file.ts). Each record's
 * value is an index into the list's distinct values; `ids` is `idsDigest` of the records' ids.
 */
export interface RecordSummaries {
  deals: { ids: string; categories: string[]; category: number[]; statuses: string[]; status: number[]; featured: number[]; recommended: number[] };
  startups: { ids: string; categories: string[]; category: number[] };
}

/** What the catalog reads of a deal at start (deal facts, category positions). */
export type DealSummary = Pick<Deal, 'category' | 'status' | 'featured' | 'recommended'>;
export type StartupSummary = Pick<Startup, 'category'>;

/** Records parsed when first read, and what the catalog derives from them at start meanwhile. */
export interface LaterRecords {
  deals: RecordsInFile<Deal>;
  startups: RecordsInFile<Startup>;
  summaries: { deals: DealSummary[]; startups: StartupSummary[] };
  /** `idsDigest` of each list's ids in order: a search index whose refs have the same digest has record i as document i. */
  ids: { deals: string; startups: string };
}

/**
 * The records' summaries (`RecordSummaries`), for the build to write beside the spans.
 * @example spans.summaries = summariesOf(data)
 */
export function summariesOf(data: Pick<CatalogData, 'deals' | 'startups'>): RecordSummaries {
  const deals = indexed(data.deals.map((d) => d.category));
  const statuses = indexed(data.deals.map((d) => d.status));
  const startups = indexed(data.startups.map((s) => s.category));
  const flag = (on: boolean | undefined): number => (on ? 1 : 0);
  return {
    deals: {
      ids: idsDigest(data.deals.map((d) => d.id)),
      categories: deals.values,
      category: deals.at,
      statuses: statuses.values,
      status: statuses.at,
      featured: data.deals.map((d) => flag(d.featured)),
      recommended: data.deals.map((d) => flag(d.recommended)),
    },
    startups: { ids: idsDigest(data.startups.map((s) => s.id)), categories: startups.values, category: startups.at },
  };
}

/**
 * A digest of ids in their order: equal digests, equal lists (SHA-256).
 * @example idsDigest(index.refs) === summaries.deals.ids
 */
export function idsDigest(ids: readonly string[]): string {
  // One update of the joined text: an update per id took 25 ms for 15,000 ids.
  return createHash('sha256').update(ids.join('\n')).digest('hex');
}

/**
 * `JSON.stringify(data)` as UTF-8 chunks of about a MiB, filling `spans` with the byte spans of
 * its deals and startups as it goes: the build writes the catalog without ever holding all of
 * its text (117 MB at 150,000 records, twice over while joined and once more encoded).
 * @example Buffer.concat([...catalogChunks(data, spans)]).toString() === JSON.stringify(data) // true
 */
export function* catalogChunks(data: Omit<CatalogData, 'drafts'>, spans: RecordSpans): Generator<Buffer> {
  yield* jsonChunks(data, 2, (key, start, end) => {
    if (key === 'deals' || key === 'startups') spans[key].push(start, end);
  });
}

/**
 * Each list's records as bytes of `file` (record-bytes.ts), or `undefined` when `spans` do not
 * describe this catalog (another version, another count, or a span that is not a record in a
 * list), in which case the caller serialises the records itself.
 */
export function recordBytesInFile(file: Uint8Array, data: CatalogData, spans: RecordSpans | undefined): { deals: RecordBytes; startups: RecordBytes } | undefined {
  if (!spans || spans.version !== data.version) return undefined;
  return bytesOf(file, spans, data.deals.length, data.startups.length);
}

function bytesOf(file: Uint8Array, spans: RecordSpans, dealCount: number, startupCount: number): { deals: RecordBytes; startups: RecordBytes } | undefined {
  const deals = RecordBytes.inFile(file, spans.deals, dealCount);
  const startups = RecordBytes.inFile(file, spans.startups, startupCount);
  return deals && startups ? { deals, startups } : undefined;
}

/** A catalog as `readCatalogFile` gives it: the data, and each list's records as bytes of the file when the spans fit. */
export interface CatalogFile {
  data: CatalogData;
  json: { deals: RecordBytes; startups: RecordBytes } | undefined;
  /**
   * Set when the spans carry the records' summaries: the records are then parsed when first read,
   * or a slice at a time once the server listens, and `data.deals` and `data.startups` are empty
   * (catalog.ts `createCatalog` takes them from here).
   */
  later?: LaterRecords;
}

/**
 * The catalog in `file` (`generated/catalog.json`). When `spans` fit it, each record is parsed
 * from its own bytes, its description left out, and reads that from them (text-in-file.ts): the
 * heap never holds the descriptions, nor all records at once twice, and 150,000 small parses
 * took 420 ms where one of the 117 MB text took 1,660. Otherwise the whole text is parsed, as a
 * build without spans needs.
 */
export function readCatalogFile(file: Buffer, spans: RecordSpans | undefined): CatalogFile {
  const bySpans = spans && recordsBySpans(file, spans);
  if (bySpans) return bySpans;
  const data = JSON.parse(file.toString('utf8')) as CatalogData;
  return { data, json: recordBytesInFile(file, data, spans) };
}

// --- internal ---

const LISTS = ['deals', 'startups'] as const;
const [COMMA, CLOSE_LIST] = [',', ']'].map((c) => c.charCodeAt(0));

/**
 * The catalog read record by record, or undefined when `spans` do not tile its lists exactly:
 * each list's spans, one comma apart, fill the brackets of a list that is empty once they are
 * cut out, in a catalog of their version, and each span parses as one record.
 */
function recordsBySpans(file: Buffer, spans: RecordSpans): CatalogFile | undefined {
  if (!LISTS.every((list) => tiles(file, spans[list], list))) return undefined;
  const cuts = LISTS.map((list) => spans[list])
    .filter((at) => at.length > 0)
    .map((at): [number, number] => [at[0] as number, at.at(-1) as number])
    .sort((a, b) => a[0] - b[0]);
  let rest = '';
  let at = 0;
  for (const [from, to] of cuts) {
    rest += file.toString('utf8', at, from);
    at = to;
  }
  try {
    const data = JSON.parse(rest + file.toString('utf8', at)) as CatalogData;
    if (data.version !== spans.version || !LISTS.every((list) => Array.isArray(data[list]) && data[list].length === 0)) return undefined;
    const read = readingFromFile(file);
    const recordAt = (list: (typeof LISTS)[number], i: number): object | undefined => {
      const bounds = spans[list];
      const record = read(bounds[2 * i] as number, bounds[2 * i + 1] as number);
      return typeof record === 'object' && record !== null && !Array.isArray(record) ? record : undefined;
    };
    // The spans tile the lists, so they give each list's count before any record is parsed.
    const json = bytesOf(file, spans, spans.deals.length / 2, spans.startups.length / 2);
    if (!json) return undefined;
    const later = spans.summaries && laterRecords(spans, spans.summaries, recordAt);
    if (later) return { data, json, later };
    for (const list of LISTS) {
      const records: object[] = Array.from({ length: spans[list].length / 2 });
      (data as Record<typeof list, object[]>)[list] = records;
      for (let i = 0; i < records.length; i++) {
        const record = recordAt(list, i);
        if (record === undefined) return undefined;
        records[i] = record;
      }
    }
    return { data, json };
  } catch {
    // A span that is not one record's JSON: these spans are not this file's.
    return undefined;
  }
}

/**
 * The records to parse when first read, with their summaries; `undefined` when the summaries do
 * not describe as many records as the spans, or name a value they do not list.
 */
function laterRecords(spans: RecordSpans, summaries: RecordSummaries, recordAt: (list: (typeof LISTS)[number], i: number) => object | undefined): LaterRecords | undefined {
  const [dealCount, startupCount] = [spans.deals.length / 2, spans.startups.length / 2];
  const { deals: d, startups: s } = summaries;
  const fits = (values: unknown, at: unknown, count: number): at is number[] =>
    Array.isArray(values) && values.every((value) => typeof value === 'string') && Array.isArray(at) && at.length === count && at.every((i) => Number.isInteger(i) && i >= 0 && i < values.length);
  const flags = (at: unknown): at is number[] => Array.isArray(at) && at.length === dealCount && at.every((f) => f === 0 || f === 1);
  if (!d || !s || !fits(d.categories, d.category, dealCount) || !fits(d.statuses, d.status, dealCount) || !flags(d.featured) || !flags(d.recommended)) return undefined;
  if (!fits(s.categories, s.category, startupCount) || !d.statuses.every((status) => (DEAL_STATUSES as readonly string[]).includes(status))) return undefined;
  if (typeof d.ids !== 'string' || typeof s.ids !== 'string') return undefined;
  // Checked when parsed: the spans tile the lists of a catalog of their version, so each is one record's JSON.
  const parsed =
    <T>(list: (typeof LISTS)[number]) =>
    (i: number): T => {
      const record = recordAt(list, i);
      if (record === undefined) throw new Error(`generated/catalog.json: ${list} record ${i} is not an object (rebuild with npm run build:content)`);
      return record as T;
    };
  return {
    deals: new RecordsInFile(dealCount, parsed<Deal>('deals')),
    startups: new RecordsInFile(startupCount, parsed<Startup>('startups')),
    summaries: {
      deals: d.category.map((c, i) => ({
        category: d.categories[c] as string,
        status: d.statuses[d.status[i] as number] as Deal['status'],
        featured: d.featured[i] === 1,
        recommended: d.recommended[i] === 1,
      })),
      startups: s.category.map((c) => ({ category: s.categories[c] as string })),
    },
    ids: { deals: d.ids, startups: s.ids },
  };
}

/** Distinct values in order of first appearance, and each item's index among them. */
function indexed(items: readonly string[]): { values: string[]; at: number[] } {
  const index = new Map<string, number>();
  const at = items.map((item) => {
    let i = index.get(item);
    if (i === undefined) index.set(item, (i = index.size));
    return i;
  });
  return { values: [...index.keys()], at };
}

/** Whether `at` (start and end of each record) cover the inside of the JSON list under `key`, one comma between neighbours. */
function tiles(file: Buffer, at: readonly number[], key: string): boolean {
  if (at.length % 2 !== 0) return false;
  if (at.length === 0) return true;
  const first = at[0] as number;
  const named = `${JSON.stringify(key)}:[`;
  if (file.toString('latin1', first - named.length, first) !== named || file[at.at(-1) as number] !== CLOSE_LIST) return false;
  for (let i = 1; i < at.length - 1; i += 2) {
    const end = at[i] as number;
    if (file[end] !== COMMA || at[i + 1] !== end + 1) return false;
  }
  return true;
}
