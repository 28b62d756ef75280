/**
 * The Node adapter's micro-cache: finished public GET responses (status, headers, bytes) keyed
 * by content coding and URL, valid for one catalog version. A hit skips building a Web
 * Request and Response, which costs more than the answer itself. Conditional requests
 * (`If-None-Match`) always take the full path, which answers 304.
 */
import type { IncomingMessage } from 'node:http';
import type { CatalogState } from '../catalog-state.ts';
import type { Replay } from '../http/answer.ts';
import { chooseCoding } from '../http/compress.ts';
import { LruCache, MAX_CACHED_QUERY_LENGTH } from '../http/lru-cache.ts';

export interface CachedResponse {
  state: CatalogState;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** What the handler would still have done for this request (answer.ts `Replay`). */
  replay: Replay | undefined;
}

export class ResponseCache {
  private readonly cache: LruCache<CachedResponse>;

  constructor(maxEntries: number, maxBytes: number) {
    this.cache = new LruCache<CachedResponse>(maxEntries, maxBytes, (r) => r.body.byteLength);
  }

  /** The key for a request, or undefined when it must take the full path (and is not kept). */
  keyFor(req: IncomingMessage): string | undefined {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers['if-none-match'] !== undefined) return undefined;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    if (query >= 0 && url.length - query - 1 > MAX_CACHED_QUERY_LENGTH) return undefined;
    return `${chooseCoding(req.headers['accept-encoding'] ?? null) ?? 'identity'} ${url}`;
  }

  /** A stored response, if it belongs to the catalog being served now. */
  get(key: string, state: CatalogState): CachedResponse | undefined {
    const hit = this.cache.get(key);
    return hit && hit.state === state ? hit : undefined;
  }

  /** Keep a response if it is a publicly cacheable 200. */
  offer(key: string, state: CatalogState, status: number, headers: Record<string, string>, body: Uint8Array | undefined, replay?: Replay): void {
    if (status !== 200 || !body || !headers['cache-control']?.startsWith('public')) return;
    this.cache.set(key, { state, status, headers: { ...headers, 'server-timing': 'cache;desc="hit"' }, body, replay });
  }
}
