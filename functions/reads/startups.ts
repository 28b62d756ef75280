/** GET /api/v1/startups (SPEC `listStartups`): filter startup listings for sale. */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { listStartups } from '../../src/catalog/startups-query.ts';
import { parseQuery, STARTUP_LIST_PARAMS } from '../../src/schemas/query.ts';
import { assembledList, serveAnswer, type Answer, type AnswerDeps } from '../http/answer.ts';

import { invalidParameter, PUBLIC_CACHE } from '../http/params.ts';

/** The answer for one query string; throws ApiError 400. */
export function startupsAnswer(catalog: Catalog, params: URLSearchParams): Answer {
  const parsed = parseQuery(STARTUP_LIST_PARAMS, params);
  if (!parsed.ok) throw invalidParameter(parsed.problem);
  const { positions, total } = listStartups(catalog, parsed.value);
  // Same bytes as JSON.stringify({ success, startups, total }), assembled from each listing's prepared bytes.
  return assembledList(catalog.version, '{"success":true,"startups":[', catalog.startupJson, positions, `],"total":${total}}`, PUBLIC_CACHE);
}

export const getStartups = (request: Request, deps: AnswerDeps): Promise<Response> => serveAnswer(request, deps, 'startups', startupsAnswer);
