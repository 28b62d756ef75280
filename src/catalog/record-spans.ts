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

/** Byte offsets in `catalog.json`: record i of a list runs from `at[2i]` to `at[2i + 1]`. */
export interface RecordSpans {
  version: string;
  deals: number[];
  startups: number[];
}

const [OPEN, CLOSE, COMMA, BRACKET] = ['{', '}', ',', '['].map((c) => c.charCodeAt(0));
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
 * Each record's bytes as a view of `file`, or `undefined` when `spans` do not describe this
 * catalog (another version, another count, or a span that is not a record in a list), in which
 * case the caller serialises the records itself.
 */
export function recordViews(file: Uint8Array, data: CatalogData, spans: RecordSpans | undefined): { deals: Uint8Array[]; startups: Uint8Array[] } | undefined {
  if (!spans || spans.version !== data.version) return undefined;
  const views = (at: readonly number[], count: number): Uint8Array[] | undefined => {
    if (at.length !== count * 2) return undefined;
    const list: Uint8Array[] = [];
    for (let i = 0; i < at.length; i += 2) {
      const [start, end] = [at[i] as number, at[i + 1] as number];
      const before = file[start - 1];
      if (!(end > start && end <= file.byteLength && file[start] === OPEN && file[end - 1] === CLOSE && (before === COMMA || before === BRACKET))) return undefined;
      list.push(file.subarray(start, end));
    }
    return list;
  };
  const deals = views(spans.deals, data.deals.length);
  const startups = views(spans.startups, data.startups.length);
  return deals && startups ? { deals, startups } : undefined;
}
