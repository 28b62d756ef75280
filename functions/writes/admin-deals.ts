/**
 * Admin deal management (SPEC POST/PUT/DELETE /deals): create one deal or bulk-upsert many by
 * slug, update by id and/or slug (a new slug renames the file and keeps the id), delete by id,
 * slug or a list of ids. Each request is one commit; with `?errors=all` a refused deal lists every problem. `PUT`/`DELETE` honour `If-Match`. The
 * one-record writes are the ones every kind shares (admin-records.ts); bulk upsert is the deals' own.
 */
import { requireAdmin } from '../auth/guard.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { asJsonObject, readBody } from '../http/request-body.ts';
import { createRecord, deleteRecords, invalid, merge, newRecord, NO_STORE, slugFor, type AdminWriteDeps } from './admin-records.ts';
import { DEALS } from './record-kinds.ts';
import { applyChange, withAllErrors } from './record-writes.ts';
import { utcDay } from '../utc-day.ts';

/** POST /deals: one deal (or `{ deals: [...] }`, several in one commit), after the admin's session is checked. */
export async function postDeals(request: Request, deps: AdminWriteDeps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = asJsonObject(await readBody(request, 32 * 1024 * 1024));
  if (!('deals' in body)) return withAllErrors(request, () => createRecord(request, deps, DEALS, session, body));

  if (!Array.isArray(body.deals) || body.deals.length === 0) throw invalid(DEALS, 'deals must be a non-empty array of deals.');
  const inputs = body.deals.map((item, index) => ({ index, input: asJsonObject(item, `deals[${index}]`) }));
  const today = utcDay(deps.clock());
  let created = 0;
  let slugs: string[] = [];
  await applyChange(deps, DEALS, (catalog) => {
    created = 0;
    const seen = new Set<string>();
    const upserts = inputs.map(({ index, input }) => {
      const slug = slugFor(DEALS, input, `deals[${index}]`);
      if (seen.has(slug)) throw new ApiError(400, 'conflict', `deals[${index}]: slug \`${slug}\` appears twice in this request.`, { hint: 'Give every deal its own slug.' });
      seen.add(slug);
      // Drafts too: a draft's slug is taken, and the upsert changes the draft.
      const existing = DEALS.bySlug(catalog).get(slug);
      if (!existing) created++;
      return existing ? merge(existing, input, today) : newRecord(DEALS, { ...input, slug }, today);
    });
    slugs = upserts.map((d) => d.slug);
    return { upserts, removals: [], message: `Bulk upsert of ${upserts.length} deals`, actor: session.email };
  });
  return answerResponse(request, jsonAnswer(200, { success: true, created, updated: slugs.length - created, deleted: 0, slugs }, NO_STORE));
}

export const deleteDeals = (request: Request, deps: AdminWriteDeps): Promise<Response> => deleteRecords(request, deps, DEALS);
