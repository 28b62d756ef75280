/**
 * Serve a GET route whose answer is a pure function of the catalog and the query string:
 * pinned answer, else cached answer, else computed (and cached). Computation time is reported
 * in `Server-Timing` so the benchmark can read the time spent inside the server.
 */
import type { AnswerFor } from '../catalog-state.ts';
import type { Deps } from '../deps.ts';
import { answerResponse } from './answer.ts';
import { MAX_CACHED_QUERY_LENGTH } from './lru-cache.ts';

/**
 * @param route cache namespace, such as `deals`
 * @example serveAnswer(request, deps, 'deals', dealsAnswer)
 */
export async function serveAnswer(request: Request, deps: Deps, route: string, compute: AnswerFor): Promise<Response> {
  const url = new URL(request.url);
  const key = route + url.search;
  const state = deps.state();
  const ready = (url.search === '' ? state.pinned(route) : undefined) ?? state.answers.get(key);
  if (ready) return answerResponse(request, ready, { 'Server-Timing': 'cache;desc="hit"' });

  const started = performance.now();
  const answer = compute(state.catalog, url.searchParams);
  const elapsed = performance.now() - started;
  // A long query string is computed every time: its key would cost more memory than its answer.
  if (url.search.length - 1 <= MAX_CACHED_QUERY_LENGTH) state.answers.set(key, answer);
  return answerResponse(request, answer, { 'Server-Timing': `app;dur=${elapsed.toFixed(3)}` });
}
