/**
 * Where each deal's and startup's JSON lies in `generated/catalog.json`, written by the build
 * next to it, so the server takes each record's answer bytes as a view of the file it read
 * instead of serialising and encoding every record again at start (issue 19: the runtime loads
 * what the build prepared; 170 ms of a 1.9 s start at 5,000 deals and 10,000 startups). The
 * catalog text is exactly `JSON.stringify(data)`, and a record's span is exactly
 * `JSON.stringify(record)`: parsing and serialising JSON gives back the text it parsed.
 */
import type { CatalogData } from './catalog.ts';

/** Byte offsets in `catalog.json`: record i of a list runs from `at[2i]` to `at[2i + 1]`. */
export interface RecordSpans {
  version: string;
  deals: number[];
  startups: number[];
}

const encoder = new TextEncoder();
const [OPEN, CLOSE, COMMA, BRACKET] = ['{', '}', ',', '['].map((c) => c.charCodeAt(0));

/**
 * `JSON.stringify(data)` with the byte spans of its deals and startups.
 * @example catalogWithSpans(data).text === JSON.stringify(data) // true
 */
export function catalogWithSpans(data: Omit<CatalogData, 'drafts'>): { text: string; spans: RecordSpans } {
  const spans: RecordSpans = { version: data.version, deals: [], startups: [] };
  const parts: string[] = [];
  let bytes = 0;
  const add = (text: string) => {
    parts.push(text);
    bytes += encoder.encode(text).byteLength;
  };
  add('{');
  let first = true;
  Object.entries(data).forEach(([key, value]) => {
    // JSON.stringify leaves out undefined members.
    if (value === undefined) return;
    add(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (key !== 'deals' && key !== 'startups') return add(JSON.stringify(value));
    add('[');
    (value as object[]).forEach((record, r) => {
      if (r > 0) add(',');
      const start = bytes;
      add(JSON.stringify(record));
      spans[key].push(start, bytes);
    });
    add(']');
  });
  add('}');
  return { text: parts.join(''), spans };
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
