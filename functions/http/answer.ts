/**
 * A prepared JSON answer: identity bytes, a strong ETag and lazily compressed variants, so a
 * repeated answer costs no serialisation, hashing or compression. `answerResponse` turns one
 * into a Web `Response` for a given request (conditional GET, content coding).
 */
import { createHash } from 'node:crypto';
import { chooseCoding, compress, COMPRESS_MIN_BYTES, type Coding } from './compress.ts';
import { errorBody, type ApiError } from './errors.ts';

export interface Answer {
  status: number;
  body: Uint8Array;
  /** Strong validator of the identity bytes, quoted: `"…"`. */
  etag: string;
  headers: Record<string, string>;
  encoded: Partial<Record<Coding, Promise<Uint8Array>>>;
  /** For a search: how many deals matched before `limit` (read by the search-gap counter). */
  matches?: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const encoder = new TextEncoder();

/** Bytes behind responses built here, so the Node adapter can write them without streaming. */
const rawBodies = new WeakMap<Response, Uint8Array>();

/**
 * What a handler still has to do when its stored response is served again without it (the
 * Node adapter's micro-cache): count a search. Given the header reader of the new request.
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
  return { status, body, etag: etagOf(body), headers: { 'Content-Type': JSON_TYPE, ...headers }, encoded: {} };
}

/** The SPEC error object for an ApiError, never cached, with the error's own headers. */
export function errorAnswer(error: ApiError, now: Date): Answer {
  return jsonAnswer(error.status, errorBody(error, now), { 'Cache-Control': 'no-store', ...error.headers });
}

/** Strong ETag of some bytes. */
export function etagOf(body: Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** Start compressing an answer's body ahead of time (for answers served many times). */
export function precompress(answer: Answer, quality: 'fast' | 'best' = 'best'): void {
  if (answer.body.byteLength < COMPRESS_MIN_BYTES) return;
  for (const coding of ['br', 'gzip'] as const) answer.encoded[coding] ??= compress(answer.body, coding, quality);
}

/**
 * The response for one request: 304 when `If-None-Match` matches, else the body in the best
 * content coding the client accepts.
 */
export async function answerResponse(request: Request, answer: Answer, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { ...answer.headers, ...extraHeaders };
  const compressible = answer.body.byteLength >= COMPRESS_MIN_BYTES;
  if (compressible) headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
  const cacheable = answer.status === 200 && (request.method === 'GET' || request.method === 'HEAD');
  if (!cacheable) return bytesResponse(answer.status, answer.body, headers);

  const coding = compressible ? chooseCoding(request.headers.get('accept-encoding')) : undefined;
  headers.ETag = coding ? `${answer.etag.slice(0, -1)}-${coding}"` : answer.etag;
  if (matchesEtag(request.headers.get('if-none-match'), answer.etag)) {
    delete headers['Content-Type'];
    return bytesResponse(304, undefined, headers);
  }
  if (!coding) return bytesResponse(answer.status, answer.body, headers);
  const encoded = await (answer.encoded[coding] ??= compress(answer.body, coding));
  headers['Content-Encoding'] = coding;
  return bytesResponse(answer.status, encoded, headers);
}

/** Ask whoever serves `response` again from a store to call `replay` each time. */
export function onReplay(response: Response, replay: Replay): void {
  replays.set(response, replay);
}

/** The replay registered for a response, if any. */
export function replayOf(response: Response): Replay | undefined {
  return replays.get(response);
}

/** The bytes of a response built by this module, if it was. */
export function rawBody(response: Response): Uint8Array | undefined {
  return rawBodies.get(response);
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

// --- internal ---

function bytesResponse(status: number, body: Uint8Array | undefined, headers: Record<string, string>): Response {
  const response = new Response(body && status !== 304 ? (body as Uint8Array<ArrayBuffer>) : null, { status, headers });
  if (body && status !== 304) rawBodies.set(response, body);
  return response;
}
