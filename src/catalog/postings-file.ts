/**
 * The search postings as the build writes them (`generated/search-postings.bin`) and the server
 * loads them: the typed arrays of each index's `PostingsLayout` (catalog/search.ts), laid out in
 * the file as they lie in memory, so a start reads one file and makes views of it instead of
 * parsing JSON and copying every number (at 50,000 deals and 100,000 startups, 6.3 million
 * postings: 77 MB of JSON took 0.36 s to parse and copy, and left as much again of garbage;
 * docs/performance.md).
 *
 * Layout, all numbers little-endian, each section starting at a multiple of 8 bytes:
 *   - 8 bytes `SDPOST2\n`, then the byte length of the header (u32);
 *   - the header, JSON: for `deals` and `startups`, the index's refs, terms (sorted), stats,
 *     posting count, and where its three sections start (bytes after the header's padding);
 *   - per index, the layout's `starts` (Int32, terms × fields + 1), `docs` (Int32) and
 *     `weights` (Int32, in thousandths: catalog/search.ts `fieldWeight`).
 * A file of the first version (`SDPOST1\n`, weights as Float64) is still read, its weights
 * converted, so a server can load a build made before.
 */
import { endianness } from 'node:os';
import type { SearchPostings } from './catalog.ts';
import { runStarts, type IndexStats, type PostingsLayout } from './search.ts';

const MAGIC = 'SDPOST2\n';
/** The first version: the same, but weights as Float64 (lunr's floats). */
const MAGIC_FLOAT_WEIGHTS = 'SDPOST1\n';
/** The largest piece the writer hands over: sections go out a MiB at a time. */
const CHUNK_BYTES = 1 << 20;
const REBUILD = '(rebuild with npm run build:content)';

/** The file does not hold a valid postings layout (truncated, another format, numbers out of range). */
export class PostingsFileError extends Error {}

/** The file's bytes, in pieces of at most a MiB (views of the layouts' arrays), for `writeFile`. */
export function* postingsFileChunks(postings: SearchPostings): Generator<Uint8Array> {
  littleEndianOnly();
  let offset = 0;
  const place = (bytes: number): number => {
    const at = offset;
    offset += padded(bytes);
    return at;
  };
  const header: Record<string, IndexHeader> = {};
  for (const [name, { refs, terms, stats, starts, docs, weights }] of Object.entries(postings)) {
    header[name] = { refs, terms, stats, count: docs.length, starts: place(starts.byteLength), docs: place(docs.byteLength), weights: place(weights.byteLength) };
  }
  const json = Buffer.from(JSON.stringify(header));
  const head = Buffer.alloc(padded(12 + json.byteLength));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.byteLength, 8);
  json.copy(head, 12);
  yield head;
  for (const { starts, docs, weights } of Object.values(postings)) {
    for (const numbers of [starts, docs, weights]) {
      const bytes = new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength);
      for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
      if (bytes.byteLength % 8 !== 0) yield new Uint8Array(8 - (bytes.byteLength % 8));
    }
  }
}

/**
 * The layouts of a postings file: views of `file`, no number copied.
 * @throws PostingsFileError when the bytes are not a whole, consistent postings file
 */
export function readPostingsFile(file: Buffer): SearchPostings {
  littleEndianOnly();
  const magic = file.byteLength < 12 ? '' : file.toString('latin1', 0, 8);
  if (magic !== MAGIC && magic !== MAGIC_FLOAT_WEIGHTS) throw new PostingsFileError(`not a search postings file ${REBUILD}`);
  const headerLength = file.readUInt32LE(8);
  if (12 + headerLength > file.byteLength) throw new PostingsFileError(`search postings file is truncated or its header is wrong ${REBUILD}`);
  const header = parseHeader(file.toString('utf8', 12, 12 + headerLength));
  // Typed arrays need their element size's alignment; a buffer from the shared pool may lack it.
  const bytes = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
  const base = bytes.byteOffset + padded(12 + headerLength);
  const end = bytes.byteOffset + bytes.byteLength;
  const view = <T extends Int32Array | Float64Array>(Type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number }, at: number, length: number): T => {
    if (at % 8 !== 0 || base + at + length * Type.BYTES_PER_ELEMENT > end) throw new PostingsFileError(`search postings file is truncated or its header is wrong ${REBUILD}`);
    return new Type(bytes.buffer, base + at, length);
  };
  const layout = ({ refs, terms, stats, count, ...at }: IndexHeader): PostingsLayout => {
    const read = {
      refs,
      terms,
      stats,
      starts: view(Int32Array, at.starts, terms.length * stats.fields.length + 1),
      docs: view(Int32Array, at.docs, count),
      weights: magic === MAGIC ? view(Int32Array, at.weights, count) : thousandths(view(Float64Array, at.weights, count)),
    };
    checkLayout(read);
    return read;
  };
  return { deals: layout(header.deals), startups: layout(header.startups) };
}

/** What builds before the binary file wrote to `search-postings.json`: per term, a `[field, docs, weights]` triple for each field it is in. */
export interface JsonPostings {
  refs: string[];
  terms: string[];
  postings: [number, number[], number[]][][];
  stats: IndexStats;
}

/** The layout of an earlier build's JSON postings, so a server can still load that build. */
export function layoutOfJson(json: JsonPostings): PostingsLayout {
  const fields = json.stats.fields.length;
  const starts = new Int32Array(json.terms.length * fields + 1);
  json.postings.forEach((triples, t) => {
    for (const [field, docs, weights] of triples) {
      if (!(field >= 0 && field < fields) || t >= json.terms.length || docs.length !== weights.length) throw new PostingsFileError(`search-postings.json is inconsistent ${REBUILD}`);
      starts[t * fields + field + 1] = docs.length;
    }
  });
  runStarts(starts);
  const count = starts[starts.length - 1] as number;
  const docs = new Int32Array(count);
  const weights = new Int32Array(count);
  json.postings.forEach((triples, t) => {
    for (const [field, termDocs, termWeights] of triples) {
      docs.set(termDocs, starts[t * fields + field]);
      weights.set(thousandths(termWeights), starts[t * fields + field]);
    }
  });
  return { refs: json.refs, terms: json.terms, stats: json.stats, starts, docs, weights };
}

// --- internal ---

interface IndexHeader {
  refs: string[];
  terms: string[];
  stats: IndexStats;
  /** Postings in all (the length of `docs` and of `weights`). */
  count: number;
  /** Byte offsets of the sections, from the end of the header's padding. */
  starts: number;
  docs: number;
  weights: number;
}

const padded = (bytes: number): number => Math.ceil(bytes / 8) * 8;

/** lunr's weights (rounded to 3 decimals) as the thousandths the postings keep; refused when one is no weight lunr writes. */
function thousandths(weights: ArrayLike<number>): Int32Array {
  return Int32Array.from(weights, (weight) => {
    const value = Math.round(weight * 1000);
    if (!(value >= 0 && value <= 0x7fffffff)) throw new PostingsFileError(`search postings hold a weight out of range (${weight}) ${REBUILD}`);
    return value;
  });
}

/** Typed arrays hold numbers in the machine's byte order, and the file is little-endian. */
function littleEndianOnly(): void {
  if (endianness() !== 'LE') throw new PostingsFileError('search postings files are little-endian; this machine is big-endian, which the build does not support');
}

function parseHeader(text: string): Record<keyof SearchPostings, IndexHeader> {
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    throw new PostingsFileError(`search postings file has an unreadable header ${REBUILD}`);
  }
  const strings = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');
  const numbers = (value: unknown, length: number): boolean => Array.isArray(value) && value.length === length && value.every((item) => Number.isFinite(item));
  const valid = (h: unknown): h is IndexHeader => {
    const x = h as IndexHeader | null | undefined;
    return (
      typeof x === 'object' &&
      x !== null &&
      strings(x.refs) &&
      strings(x.terms) &&
      strings(x.stats?.fields) &&
      numbers(x.stats.boosts, x.stats.fields.length) &&
      numbers(x.stats.averageFieldLength, x.stats.fields.length) &&
      [x.stats.documentCount, x.count, x.starts, x.docs, x.weights].every((n) => Number.isSafeInteger(n) && n >= 0)
    );
  };
  const h = header as Record<string, unknown> | null;
  if (!h || !valid(h.deals) || !valid(h.startups)) throw new PostingsFileError(`search postings file has a header of another shape ${REBUILD}`);
  return { deals: h.deals, startups: h.startups };
}

/** The terms are sorted and distinct, each run lies inside the sections, in order, and names documents of the index. */
function checkLayout({ refs, terms, starts, docs }: PostingsLayout): void {
  // Prefix search looks terms up by binary search.
  for (let at = 1; at < terms.length; at++) {
    if (!((terms[at - 1] as string) < (terms[at] as string))) throw new PostingsFileError(`search postings file has terms out of order ${REBUILD}`);
  }
  if (starts[0] !== 0 || starts[starts.length - 1] !== docs.length) throw new PostingsFileError(`search postings file has inconsistent sections ${REBUILD}`);
  for (let at = 1; at < starts.length; at++) {
    if ((starts[at] as number) < (starts[at - 1] as number)) throw new PostingsFileError(`search postings file has inconsistent sections ${REBUILD}`);
  }
  // An indexed loop: it runs once per start, before V8 has optimised it, and `for…of` over a
  // typed array took five times as long there (20 ms against 4 for 1.3 million entries).
  const documents = refs.length;
  for (let at = 0; at < docs.length; at++) {
    const doc = docs[at] as number;
    if (doc < 0 || doc >= documents) throw new PostingsFileError(`search postings file names a document the index does not have ${REBUILD}`);
  }
}
