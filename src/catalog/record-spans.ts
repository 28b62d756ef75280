/**
 * Where each deal's and startup's JSON lies in `generated/catalog.json`, written by the build
 * next to it, so the server takes each record's answer bytes as a view of the file it read
 * instead of serialising and encoding every record again at start (issue 19: the runtime loads
 * what the build prepared; 170 ms of a 1.9 s start at 5,000 deals and 10,000 startups). The
 * catalog text is exactly `JSON.stringify(data)`, and a record's span is exactly
 * `JSON.stringify(record)`: parsing and serialising JSON gives back the text it parsed.
 */
import type { CatalogData } from './catalog.ts';
import { jsonChunks } from './utf8-chunks.ts';
import { RecordBytes } from './record-bytes.ts';
import { readingFromFile } from './text-in-file.ts';

/** Byte offsets in `catalog.json`: record i of a list runs from `at[2i]` to `at[2i + 1]`. */
export interface RecordSpans {
  version: string;
  deals: number[];
  startups: number[];
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
  const deals = RecordBytes.inFile(file, spans.deals, data.deals.length);
  const startups = RecordBytes.inFile(file, spans.startups, data.startups.length);
  return deals && startups ? { deals, startups } : undefined;
}

/** A catalog as `readCatalogFile` gives it: the data, and each list's records as bytes of the file when the spans fit. */
export interface CatalogFile {
  data: CatalogData;
  json: { deals: RecordBytes; startups: RecordBytes } | undefined;
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
    for (const list of LISTS) {
      const bounds = spans[list];
      const records: object[] = Array.from({ length: bounds.length / 2 });
      (data as Record<typeof list, object[]>)[list] = records;
      for (let i = 0; i < records.length; i++) {
        const [start, end] = [bounds[2 * i] as number, bounds[2 * i + 1] as number];
        const record = read(start, end);
        if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
        records[i] = record;
      }
    }
    const json = recordBytesInFile(file, data, spans);
    return json && { data, json };
  } catch {
    // A span that is not one record's JSON: these spans are not this file's.
    return undefined;
  }
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
