/**
 * The admin's read of drafts (issue 16, item 2): drafts are in no public answer, so the admin
 * pages list and open them here. Never cached (`no-store`), never in the shared answer cache.
 */
import type { SessionDeps } from '../auth/guard.ts';
import { requireAdmin } from '../auth/guard.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { noDrafts } from '../../src/catalog/drafts.ts';
import { ApiError } from '../http/errors.ts';
import { NO_STORE, recordEtag } from '../writes/admin-records.ts';
import { DEALS } from '../writes/record-kinds.ts';

/**
 * `GET /api/v1/admin/drafts`: every draft deal and startup; with `?slug=`, one draft deal and
 * its ETag (the one `If-Match` of `PUT /api/v1/deals` takes, as for a published deal).
 */
export async function getDrafts(request: Request, deps: SessionDeps): Promise<Response> {
  await requireAdmin(request, deps);
  const drafts = deps.state().catalog.drafts ?? noDrafts();
  const slug = new URL(request.url).searchParams.get('slug');
  if (slug === null) return answerResponse(request, jsonAnswer(200, { success: true, deals: drafts.deals, startups: drafts.startups }, NO_STORE));
  const deal = drafts.deals.find((d) => d.slug === slug);
  if (!deal) {
    throw new ApiError(404, 'not_found', `No draft deal has slug \`${slug}\`.`, { hint: 'A published deal is read with GET /api/v1/deals?slug=…; GET /api/v1/admin/drafts lists the drafts.' });
  }
  return answerResponse(request, jsonAnswer(200, { success: true, deal }, { ...NO_STORE, ETag: recordEtag(DEALS, deal) }));
}
