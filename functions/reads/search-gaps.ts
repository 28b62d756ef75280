/**
 * GET /api/v1/admin/search-gaps (admin only): the searches people could not finish, for
 * editors deciding which deals to add (docs/search-gaps.md). `days` (1–30, default 7) is the
 * period, today included; `limit` (default 50, at most 500) how many queries to list.
 */
import { requireAdmin, type SessionDeps } from '../auth/guard.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { wholeParam } from '../http/params.ts';
import { RETAIN_DAYS } from '../search-gaps/store.ts';

const LIMIT = { default: 50, max: 500 };

export async function getSearchGaps(request: Request, deps: SessionDeps & Pick<Deps, 'searchGaps' | 'log'>): Promise<Response> {
  await requireAdmin(request, deps);
  const params = new URL(request.url).searchParams;
  const days = Math.min(wholeParam(params, 'days', 7, 1), RETAIN_DAYS);
  const limit = Math.min(wholeParam(params, 'limit', LIMIT.default, 1), LIMIT.max);
  const report = await deps.searchGaps.report(days, limit).catch((error: unknown) => {
    deps.log.warn('search_gaps_unavailable', { error: error instanceof Error ? error.message : String(error) });
    throw new ApiError(503, 'service_unavailable', 'The search counts cannot be read right now.', {
      hint: 'The shared store (Redis) is not answering; try again shortly.',
      headers: { 'Retry-After': '5' },
    });
  });
  return answerResponse(request, jsonAnswer(200, { success: true, days, ...report }, { 'Cache-Control': 'no-store' }));
}
