/**
 * The catalog a process serves, with the answers that belong to that version: pinned answers
 * for the default lists (precomputed, precompressed) and the LRU answer cache.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCatalog, type Catalog, type CatalogData, type SearchPostings } from '../src/catalog/catalog.ts';
import type { Config } from '../src/config.ts';
import { CATALOG_FILE, SEARCH_POSTINGS_FILE } from '../src/pipeline/emit.ts';
import { precompress, type Answer } from './http/answer.ts';
import { LruCache } from './http/lru-cache.ts';

export interface CatalogState {
  catalog: Catalog;
  /** Answers computed at load for the hottest requests, by cache key. */
  pinned: Map<string, Answer>;
  answers: LruCache<Answer>;
}

/** Compute an answer for a route and query string; used for pinning and caching alike. */
export type AnswerFor = (catalog: Catalog, params: URLSearchParams) => Answer;

/**
 * Wrap a catalog with its answers. `pins` names routes whose answer without a query string is
 * precomputed (cache key = the route name, as `answerKey` makes it).
 * @example createCatalogState(catalog, config, [['deals', dealsAnswer]])
 */
export function createCatalogState(catalog: Catalog, config: Config, pins: readonly [string, AnswerFor][]): CatalogState {
  const pinned = new Map<string, Answer>();
  for (const [key, compute] of pins) {
    const answer = compute(catalog, new URLSearchParams());
    precompress(answer);
    pinned.set(key, answer);
  }
  return { catalog, pinned, answers: new LruCache<Answer>(config.answerCacheEntries, config.answerCacheBytes, (a) => a.body.byteLength) };
}

/** Load the prebuilt catalog from `generated/`. */
export async function loadGeneratedCatalog(generatedDir: string): Promise<Catalog> {
  const [data, indexes] = await Promise.all([
    readFile(join(generatedDir, CATALOG_FILE), 'utf8').then((t) => JSON.parse(t) as CatalogData),
    readFile(join(generatedDir, SEARCH_POSTINGS_FILE), 'utf8').then((t) => JSON.parse(t) as SearchPostings),
  ]);
  return createCatalog(data, indexes);
}
