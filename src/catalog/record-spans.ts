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
