/**
 * Serve a GET route whose answer is a pure function of the catalog and the query string:
 * pinned answer, else cached answer, else computed (and cached). Computation time is reported
 * in `Server-Timing` so the benchmark can read the time spent inside the server.
 */
import type { AnswerFor } from '../catalog-state.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, onReplay, type Answer } from './answer.ts';
import { MAX_CACHED_QUERY_LENGTH } from './lru-cache.ts';

/**
 * @param route cache namespace, such as `deals`
 * @param served called for every request served, from any cache or computed (the search-gap counter), with the request's header reader
 * @example serveAnswer(request, deps, 'deals', dealsAnswer)
 */
export async function serveAnswer(request: Request, deps: Deps, route: string, compute: AnswerFor, served?: Served): Promise<Response> {
  const url = new URL(request.url);
  const key = route + url.search;
  const state = deps.state();
  const ready = (url.search === '' ? state.pinned(route) : undefined) ?? state.answers.get(key);
  if (ready) return withServed(request, await answerResponse(request, ready, { 'Server-Timing': 'cache;desc="hit"' }), ready, url, served);

  const started = performance.now();
  const answer = compute(state.catalog, url.searchParams);
  const elapsed = performance.now() - started;
  // A long query string is computed every time: its key would cost more memory than its answer.
  if (url.search.length - 1 <= MAX_CACHED_QUERY_LENGTH) state.answers.set(key, answer);
  return withServed(request, await answerResponse(request, answer, { 'Server-Timing': `app;dur=${elapsed.toFixed(3)}` }), answer, url, served);
}

export type Served = (answer: Answer, params: URLSearchParams, header: (name: string) => string | null) => void;

/** Tell `served` about this request now, and about each later one the adapter's micro-cache answers with this response. */
function withServed(request: Request, response: Response, answer: Answer, url: URL, served: Served | undefined): Response {
  if (!served) return response;
  served(answer, url.searchParams, (name) => request.headers.get(name));
  onReplay(response, (header) => served(answer, url.searchParams, header));
  return response;
}
