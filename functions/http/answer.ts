/**
 * The answers the API sends, and how one is sent. An answer is identity bytes, a strong ETag
 * and lazily compressed variants, so a repeated answer costs no serialisation, hashing or
 * compression; list answers are assembled from each record's prepared bytes (below).
 * `answerResponse` turns one into a Web `Response` for a given request (conditional GET,
 * content coding); `serveAnswer` keeps them per catalog version and query string.
 */
import { createHash, hash } from 'node:crypto';
import { ByteRuns, BytesResponse, payloadBytes, takePiece, type Payload } from './bytes-response.ts';
import { chooseCoding, compress, COMPRESS_MIN_BYTES, type Coding } from './compress.ts';
import { errorBody, type ApiError } from './errors.ts';
import { headerOf, urlOf } from './lazy-request.ts';
import { MAX_CACHED_QUERY_LENGTH } from '../reads/prepared-cache.ts';
import type { AnswerFor } from '../reads/catalog-state.ts';
import type { Deps } from '../deps.ts';
import type { RecordBytes } from '../../src/catalog/record-bytes.ts';

/** What serving a cached answer reads: the catalog being served, and the answers prepared for it. */
export type AnswerDeps = Pick<Deps, 'state' | 'prepared'>;

export interface Answer {
  status: number;
  /** The identity bytes; runs of them for a huge list (`assembledList`). */
  body: Payload;
  /** Strong validator of the identity bytes, quoted: `"…"`. */
  etag: string;
  headers: Record<string, string>;
  encoded: Partial<Record<Coding, Promise<Uint8Array>>>;
  /** `false` for bodies that are never compressed (images, fonts): no coding, no `Vary: Accept-Encoding`. */
  compressible?: boolean;
  /** For a search: how many deals matched before `limit` (read by the search-gap counter). */
  matches?: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const encoder = new TextEncoder();

/**
 * What a handler still has to do when its stored response is served again without it (the
 * answer cache in http/app.ts): count a search. Given the header reader of the new request.
 */
export type Replay = (header: (name: string) => string | null) => void;
const replays = new WeakMap<Response, Replay>();

/**
 * Serialise a value once into an answer.
 * @example jsonAnswer(200, { success: true }, { 'Cache-Control': 'public, max-age=60' })
 */
export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
  return textAnswer(status, JSON.stringify(value), headers);
}

/** An answer from JSON text that is already serialised. */
export function textAnswer(status: number, json: string, headers: Record<string, string> = {}): Answer {
  const body = encoder.encode(json);
  return bytesAnswer(status, body, etagOf(body), headers);
}

/** An answer from JSON bytes and their strong ETag (quoted), computed by the caller. */
export function bytesAnswer(status: number, body: Payload, etag: string, headers: Record<string, string> = {}): Answer {
  return { status, body, etag, headers: { 'Content-Type': JSON_TYPE, ...headers }, encoded: {} };
}

/** The SPEC error object for an ApiError, never cached, with the error's own headers. */
export function errorAnswer(error: ApiError, now: Date): Answer {
  return jsonAnswer(error.status, errorBody(error, now), { 'Cache-Control': 'no-store', ...error.headers });
}

/** Strong ETag of some bytes. */
export function etagOf(body: Uint8Array): string {
  return hashEtag(createHash('sha1').update(body));
}

/**
 * Compress an answer's body ahead of time (for answers served many times), one coding after the
 * other: the work takes one of libuv's threads, never every core (see catalog-state.ts). A request
 * that wants a coding not done yet compresses it itself, and this then takes that result.
 */
export async function precompress(answer: Answer, quality: 'fast' | 'best' = 'best'): Promise<void> {
  if (answer.body.byteLength < COMPRESS_MIN_BYTES) return;
  for (const coding of ['br', 'gzip'] as const) await (answer.encoded[coding] ??= compress(answer.body, coding, quality));
}

/**
 * The response for one request: 304 when `If-None-Match` matches, else the body in the best
 * content coding the client accepts.
 */
export async function answerResponse(request: Request, answer: Answer, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { ...answer.headers, ...extraHeaders };
  const compressible = answer.compressible !== false && answer.body.byteLength >= COMPRESS_MIN_BYTES;
  if (compressible) headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
  const read = request.method === 'GET' || request.method === 'HEAD';
  if (!read) return bytesResponse(answer.status, answer.body, headers);

  const coding = compressible ? chooseCoding(headerOf(request, 'accept-encoding')) : undefined;
  // Only a 200 has a validator; other answers (the 404 page) are still compressed.
  if (answer.status === 200) headers.ETag = coding ? `${answer.etag.slice(0, -1)}-${coding}"` : answer.etag;
  if (answer.status === 200 && matchesEtag(headerOf(request, 'if-none-match'), answer.etag)) {
    delete headers['Content-Type'];
    return bytesResponse(304, undefined, headers);
  }
  if (!coding) return bytesResponse(answer.status, answer.body, headers);
  const encoded = await (answer.encoded[coding] ??= compress(answer.body, coding));
  headers['Content-Encoding'] = coding;
  return bytesResponse(answer.status, encoded, headers);
}

/**
 * The answer as it may be kept for later requests (pinned, or in the answer cache): a body
 * copied in pieces as it is sent (`copiedPieces`) is joined once, so that sending it again copies
 * nothing, unless it is longer than KEPT_WHOLE_UP_TO. An answer sent once keeps its pieces: it
 * never lies in memory whole.
 */
export function forKeeping(answer: Answer): Answer {
  const { body } = answer;
  return body instanceof ByteRuns && body.copies && body.byteLength <= KEPT_WHOLE_UP_TO ? { ...answer, body: payloadBytes(body) } : answer;
}

/**
 * The longest answer kept joined. Sending in pieces holds at most 512 KiB per client (the Node
 * adapter) and 8 MiB of spare pieces, 24 MiB for the bench's 32 clients; joined, a kept answer
 * holds its whole length beside the catalog file its records come from. So the default deal
 * list at 5,000 deals (4.3 MB) is kept joined and at 50,000 (42 MB) in pieces: joined it was 40 MB
 * more after start, and in pieces at 5,000 deals the server ended a cached load 15–30 MB larger
 * (docs/performance.md, "The default deal list kept as the catalog holds it").
 */
const KEPT_WHOLE_UP_TO = 16 * 1024 * 1024;

/** Ask whoever serves `response` again from a store to call `replay` each time. */
export function onReplay(response: Response, replay: Replay): void {
  replays.set(response, replay);
}

/** The replay registered for a response, if any. */
export function replayOf(response: Response): Replay | undefined {
  return replays.get(response);
}

/** The bytes of a response built by this module, if it was. */
export function rawBody(response: Response): Payload | undefined {
  return response instanceof BytesResponse ? response.payload : undefined;
}

/**
 * Weak comparison (RFC 9110 §13.1.2) that also accepts the coding-suffixed tags this module
 * hands out, so a cached compressed variant revalidates too.
 */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const base = etag.replace(/^W\//, '').slice(1, -1);
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '').slice(1, -1);
    return tag === base || tag === `${base}-br` || tag === `${base}-gzip`;
  });
}

/**
 * Serve a GET route whose answer is a pure function of the catalog and the query string:
 * pinned answer, else cached answer (both per catalog version), else computed and cached.
 * Computation time is reported in `Server-Timing` so the benchmark can read the time spent
 * inside the server.
 * @param route cache namespace, such as `deals`
 * @param served called for every request served, from any cache or computed (the search-gap counter), with the request's header reader
 * @example serveAnswer(request, deps, 'deals', dealsAnswer)
 */
export async function serveAnswer(request: Request, deps: AnswerDeps, route: string, compute: AnswerFor, served?: Served): Promise<Response> {
  const url = urlOf(request);
  const state = deps.state();
  const pinned = url.search === '' ? state.pinned(route) : undefined;
  const { response, answer } = await keptOrComputed(request, deps.prepared, url, { route, version: state.catalog.version, ready: pinned }, () => compute(state.catalog, url.searchParams));
  return withServed(request, response, answer, url, served, deps.prepared.keepsAnswers);
}

/**
 * Serve a GET route whose answer is a function of `version` (what it was computed from, such
 * as a commit) and the query string, computed at most once per version and query, as
 * `serveAnswer` keeps the catalog's.
 * @example serveVersioned(request, deps, 'changes', head, (params) => changesAnswer(params))
 */
export async function serveVersioned(request: Request, deps: Pick<Deps, 'prepared'>, route: string, version: string, compute: (params: URLSearchParams) => Promise<Answer>): Promise<Response> {
  const url = urlOf(request);
  return (await keptOrComputed(request, deps.prepared, url, { route, version }, () => compute(url.searchParams))).response;
}

export type Served = (answer: Answer, params: URLSearchParams, header: (name: string) => string | null) => void;

/**
 * Tell `served` about this request now, and, when the answer cache may keep this response
 * (`replayed`), about each later one it answers with it.
 */
function withServed(request: Request, response: Response, answer: Answer, url: URL, served: Served | undefined, replayed: boolean): Response {
  if (!served) return response;
  served(answer, url.searchParams, (name) => headerOf(request, name.toLowerCase()));
  if (replayed) onReplay(response, (header) => served(answer, url.searchParams, header));
  return response;
}

// --- answers assembled from prepared bytes ---

/*
 * Answers assembled from prepared bytes (issue 19). Every record's JSON is encoded once per
 * record (catalog/record-bytes.ts); a list answer is a head, the listed records' bytes joined by
 * commas, and a tail, copied into one buffer. Its strong ETag is a hash of what decides those
 * bytes (the catalog version, the head, the positions listed and the tail) rather than of the
 * body: a few hundred bytes hashed instead of up to megabytes. The same inputs always give the
 * same body, because a record's bytes are a function of the catalog version (derive.ts hashes
 * the records themselves), so the validator stays exact.
 *
 * Measured on the 5,000-deal / 10,000-startup bench catalog (docs/performance.md, issue 19): the
 * startups filter (≈600 listings, 620 KB) spent 4.5 ms per answer joining strings and 4.3 ms
 * encoding them to UTF-8 plus 0.8 ms hashing, before this.
 */

const COMMA = encoder.encode(',');
const COMMA_BYTE = 0x2c;

/**
 * The answer `head` + the records at `positions` joined by `,` + `tail`, as JSON.
 * @example assembledList(catalog.version, '{"items":[', catalog.dealJson, [0, 3], ']}', {})
 */
export function assembledList(
  version: string,
  head: string,
  records: RecordBytes,
  positions: readonly number[],
  tail: string,
  headers: Record<string, string>,
  runsFrom = RUNS_FROM_BYTES,
  minRunBytes = MIN_RUN_BYTES,
  piecesFrom = PIECES_FROM_BYTES,
): Answer {
  // Buffer.from slices Node's pool for short text, where TextEncoder allocates anew each time.
  const headBytes = Buffer.from(head);
  const tailBytes = Buffer.from(tail);
  let size = headBytes.byteLength + tailBytes.byteLength + Math.max(0, positions.length - 1);
  const { start, end } = records;
  for (const position of positions) size += (end[position] as number) - (start[position] as number);
  // Each run is one more write, and one more piece of garbage per request: long runs only.
  const runs = size >= runsFrom ? recordRuns(records, positions, Math.floor(size / minRunBytes) - 2) : undefined;
  const body = runs
    ? new ByteRuns([headBytes, ...runs, tailBytes])
    : size >= piecesFrom
      ? new ByteRuns(size, (pieceBytes) => copiedPieces(headBytes, records, positions, tailBytes, size, pieceBytes))
      : joined(headBytes, records, positions, tailBytes, size);
  return bytesAnswer(200, body, listEtag(version, headBytes, positions, tailBytes), headers);
}

/**
 * The joined body, copied into one unfilled allocation record by record. Measured on the bench's
 * category answer (20 records, 23 KB): 3.5 µs against 4.1–4.4 µs for `Buffer.concat` of the
 * pieces with a comma between them (scratch micro-benchmark, 200,000 iterations), and no array
 * of pieces per request.
 */
function joined(headBytes: Uint8Array, records: RecordBytes, positions: readonly number[], tailBytes: Uint8Array, size: number): Uint8Array {
  const body = Buffer.allocUnsafe(size);
  body.set(headBytes, 0);
  let at = headBytes.byteLength;
  positions.forEach((position, i) => {
    if (i > 0) body[at++] = COMMA_BYTE;
    at = records.copyInto(position, body, at);
  });
  body.set(tailBytes, at);
  return body;
}

/**
 * The joined body in pieces of `pieceBytes` (the last shorter), each copied only when the one
 * before has been taken: what `joined` would give, `size` bytes in all, without ever holding it whole.
 */
export function* copiedPieces(headBytes: Uint8Array, records: RecordBytes, positions: readonly number[], tailBytes: Uint8Array, size: number, pieceBytes: number): Generator<Uint8Array> {
  let left = size;
  let piece = takePiece(Math.min(pieceBytes, left));
  let at = 0;
  /** The piece filled, and a new one to fill (the last one as long as what is left). */
  const handOver = (): Uint8Array => {
    const full = piece;
    left -= at;
    piece = takePiece(Math.min(pieceBytes, left));
    at = 0;
    return full;
  };
  const { buffers, buffer, start, end } = records;
  // The head, the records, the tail. Records next to each other in the same bytes, a comma
  // between them, are copied as one run (a full list at 50,000 deals: 9,400 runs of 37,356
  // records); a comma goes before each run but the first.
  let i = -1;
  while (i <= positions.length) {
    let bytes: Uint8Array;
    let from = 0;
    let to: number;
    if (i === -1 || i === positions.length) {
      bytes = i === -1 ? headBytes : tailBytes;
      to = bytes.byteLength;
      i++;
    } else {
      if (i > 0) {
        if (at === piece.byteLength) yield handOver();
        piece[at++] = COMMA_BYTE;
      }
      const which = buffer[positions[i] as number] as 0 | 1;
      bytes = buffers[which];
      from = start[positions[i] as number] as number;
      to = end[positions[i] as number] as number;
      while (++i < positions.length && buffer[positions[i] as number] === which && start[positions[i] as number] === to + 1 && bytes[to] === COMMA_BYTE) to = end[positions[i] as number] as number;
    }
    while (from < to) {
      if (at === piece.byteLength) yield handOver();
      const count = Math.min(to - from, piece.byteLength - at);
      piece.set(bytes.subarray(from, from + count), at);
      at += count;
      from += count;
    }
  }
  if (at > 0) yield piece.subarray(0, at);
}

/**
 * A list answer's strong ETag: SHA-1 of the catalog version, the head, the positions listed
 * (each as four little-endian bytes) and the tail, NUL between them. Hashed in one call over a
 * reused buffer: a `Hash` object and four `update`s were a tenth of an uncached category answer.
 */
function listEtag(version: string, headBytes: Uint8Array, positions: readonly number[], tailBytes: Uint8Array): string {
  const length = Buffer.byteLength(version) + headBytes.byteLength + 4 * positions.length + tailBytes.byteLength + 3;
  if (length > etagInput.byteLength) etagInput = Buffer.allocUnsafe(Math.max(length, 2 * etagInput.byteLength));
  let at = etagInput.write(version, 0);
  etagInput[at++] = 0;
  etagInput.set(headBytes, at);
  at += headBytes.byteLength;
  etagInput[at++] = 0;
  for (const position of positions) at = etagInput.writeInt32LE(position, at);
  etagInput[at++] = 0;
  etagInput.set(tailBytes, at);
  at += tailBytes.byteLength;
  return `"${hash('sha1', etagInput.subarray(0, at), 'base64url').slice(0, 22)}"`;
}

/** Where `listEtag` lays out what it hashes; grown to the longest list asked for. */
let etagInput = Buffer.allocUnsafe(16 * 1024);

/**
 * The answer `head` + one record's bytes (`json`, its JSON) + `tail`, whose ETag is that of its
 * body (it names one record, and `If-Match` on admin writes compares it), computed once per
 * record and framing.
 * @example assembledRecord('{"success":true,"deal":', deal, catalog.dealJson.view(position), '}', {})
 */
export function assembledRecord(head: string, record: object, json: Uint8Array, tail: string, headers: Record<string, string>): Answer {
  const body = Buffer.concat([Buffer.from(head), json, Buffer.from(tail)]);
  let tags = recordEtags.get(record);
  if (!tags) recordEtags.set(record, (tags = new Map()));
  let etag = tags.get(head);
  if (etag === undefined) tags.set(head, (etag = etagOf(body)));
  return bytesAnswer(200, body, etag, headers);
}

/**
 * List answers of this many bytes or more, whose records lie in runs of MIN_RUN_BYTES or more
 * on average, are sent as runs of the records' own bytes rather than joined into a copy: the
 * full list of 100,000 startups (60 MB, one run of the catalog file), or every deal with
 * `status=all`. Many short runs cost more than the copy: the default list of 5,000 deals as 924
 * runs of 4.6 KB served 7–10 % fewer requests than joined, and left 395 MB resident against
 * 255 MB (the writes' garbage; docs/performance.md "Huge answers as runs of the catalog file").
 */
const RUNS_FROM_BYTES = 1024 * 1024;
const MIN_RUN_BYTES = 64 * 1024;

/**
 * Other list answers of this many bytes or more (a filter matching hundreds of records) are
 * copied in pieces of 64 KiB as the socket takes them (`copiedPieces`), whose memory is given
 * back once written (bytes-response.ts `takePiece`), not joined into one allocation each: the
 * garbage collector frees those only at its next run, and the allocator keeps what they took.
 * At 50,000 deals and 100,000 startups, 32 clients asking for 6.9 MB answers left the server
 * 145–207 MB larger and were served 73–92 times a second; in pieces, 9–37 MB and 133–140 times.
 * At 5,000 deals (621 KB answers) the memory after the load stayed flat (docs/performance.md).
 */
const PIECES_FROM_BYTES = 256 * 1024;

/**
 * The records at `positions`, each after the first preceded by a comma, as few runs as the
 * bytes allow: records lie in the built catalog file (or, after a write, a buffer of their own)
 * in catalog order with a comma between neighbours, so consecutive ones make one view of it (the
 * default full list of 50,000 deals is 9,400 runs, of 100,000 startups one); `undefined` as soon
 * as there would be more than `most`.
 */
function recordRuns(records: RecordBytes, positions: readonly number[], most: number): Uint8Array[] | undefined {
  const runs: Uint8Array[] = [];
  // The run being extended: in buffer `which` of `records`, from `start` to `end`.
  let which = -1;
  let start = 0;
  let end = 0;
  const close = () => {
    if (which >= 0) runs.push((records.buffers[which] as Uint8Array).subarray(start, end));
  };
  for (const [i, position] of positions.entries()) {
    const at = records.buffer[position] as number;
    const bytes = records.buffers[at] as Uint8Array;
    const from = records.start[position] as number;
    if (at === which && from === end + 1 && bytes[end] === COMMA_BYTE) {
      end = records.end[position] as number;
      continue;
    }
    close();
    if (runs.length >= most) return undefined;
    // The comma before a record, when its buffer holds one right there, starts its run.
    const withComma = i > 0 && from > 0 && bytes[from - 1] === COMMA_BYTE;
    if (i > 0 && !withComma) runs.push(COMMA);
    which = at;
    start = withComma ? from - 1 : from;
    end = records.end[position] as number;
  }
  close();
  return runs;
}

/** Body ETags of single-record answers, by record object and head. */
const recordEtags = new WeakMap<object, Map<string, string>>();

function hashEtag(hasher: ReturnType<typeof createHash>): string {
  return `"${hasher.digest('base64url').slice(0, 22)}"`;
}

// --- internal ---

/**
 * The answer kept for the route and query string at `version` (or `ready`), else computed,
 * timed and kept; a long query string is computed every time (its key would cost more memory
 * than its answer).
 */
async function keptOrComputed(
  request: Request,
  prepared: Deps['prepared'],
  url: URL,
  at: { route: string; version: string; ready?: Answer | undefined },
  compute: () => Answer | Promise<Answer>,
): Promise<{ response: Response; answer: Answer }> {
  const key = at.route + url.search;
  const ready = at.ready ?? prepared.get<Answer>('answer', key, at.version);
  if (ready) return { response: await answerResponse(request, ready, { 'Server-Timing': 'cache;desc="hit"' }), answer: ready };
  const started = performance.now();
  const computed = await compute();
  const elapsed = performance.now() - started;
  const kept = prepared.keepsAnswers && url.search.length - 1 <= MAX_CACHED_QUERY_LENGTH && prepared.fits('answer', key, computed.body.byteLength);
  const answer = kept ? forKeeping(computed) : computed;
  if (kept) prepared.set('answer', key, at.version, answer, answer.body.byteLength);
  return { response: await answerResponse(request, answer, { 'Server-Timing': `app;dur=${elapsed.toFixed(3)}` }), answer };
}

function bytesResponse(status: number, body: Payload | undefined, headers: Record<string, string>): Response {
  return body && status !== 304 ? new BytesResponse(body, { status, headers }) : new Response(null, { status, headers });
}

/** A response of stored bytes (the answer cache), writable by adapters without streaming; `headers` as `headerFields` gave them. */
export function storedResponse(status: number, headers: Record<string, string>, body: Payload): Response {
  return BytesResponse.withCheckedFields(body, status, headers);
}
