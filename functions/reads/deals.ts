/**
 * GET /api/v1/deals (SPEC `listOrSearchDeals`): list, search and filter deals, or look one up
 * by slug or id.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { findDeal, listDeals, type DealStats } from '../../src/catalog/deals-query.ts';
import { recordJson } from '../../src/catalog/record-bytes.ts';
import { DEAL_LIST_PARAMS, parseQuery } from '../../src/schemas/query.ts';
import type { Deps } from '../deps.ts';
import { assembledList, assembledRecord, serveAnswer, type Answer, type AnswerDeps } from '../http/answer.ts';

import { ApiError } from '../http/errors.ts';
import { invalidParameter, PUBLIC_CACHE } from '../http/params.ts';

/** The answer for one query string; throws ApiError 400/404. */
export function dealsAnswer(catalog: Catalog, params: URLSearchParams): Answer {
  const parsed = parseQuery(DEAL_LIST_PARAMS, params);
  if (!parsed.ok) throw invalidParameter(parsed.problem);
  const query = parsed.value;

  if (query.slug !== undefined || query.id !== undefined) {
    const deal = findDeal(catalog, query);
    if (!deal) {
      const named = [query.slug !== undefined && `slug \`${query.slug}\``, query.id !== undefined && `id \`${query.id}\``].filter(Boolean).join(' and ');
      throw new ApiError(404, 'not_found', `No deal matches ${named}.`, {
        hint: 'Verify the id or slug: list deals with GET /api/v1/deals or search with GET /api/v1/deals?search=<words>.',
      });
    }
    // Same bytes as JSON.stringify({ success, deal }).
    const position = catalog.dealPositionBySlug.get(deal.slug) ?? -1;
    const json = catalog.deals[position] === deal ? catalog.dealJson.view(position) : recordJson(deal);
    return assembledRecord('{"success":true,"deal":', deal, json, '}', PUBLIC_CACHE);
  }
  const { positions, stats } = listDeals(catalog, query);
  // Same bytes as JSON.stringify({ success, deals, count, stats }), assembled from each deal's prepared bytes.
  const tail = `],"count":${positions.length},"stats":${statsJson(stats)}}`;
  const answer = assembledList(catalog.version, '{"success":true,"deals":[', catalog.dealJson, positions, tail, PUBLIC_CACHE);
  if (query.search !== undefined && query.search.trim() !== '') answer.matches = stats.total;
  return answer;
}

/** The JSON of a filter's stats, made once per stats object: a filter's are counted once per catalog and kept frozen (deals-query.ts). */
const statsJsonOf = new WeakMap<DealStats, string>();
function statsJson(stats: DealStats): string {
  let json = statsJsonOf.get(stats);
  if (json === undefined) {
    json = JSON.stringify(stats);
    if (Object.isFrozen(stats)) statsJsonOf.set(stats, json);
  }
  return json;
}

/**
 * Instant search marks the requests it sends while someone types (`Search-Intent: incremental`):
 * those are not counted as searches people could not finish (docs/search-gaps.md).
 */
export const SEARCH_INTENT_HEADER = 'Search-Intent';

export const getDeals = (request: Request, deps: AnswerDeps & Pick<Deps, 'searchGaps'>): Promise<Response> =>
  serveAnswer(request, deps, 'deals', dealsAnswer, (answer, params, header) => {
    if (answer.matches === undefined || header(SEARCH_INTENT_HEADER)?.toLowerCase() === 'incremental') return;
    deps.searchGaps.note(params.get('search') ?? '', answer.matches);
  });
