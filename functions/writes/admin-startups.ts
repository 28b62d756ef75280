/**
 * Startups for sale in the admin (issue 16, item 4), under /api/v1/admin/startups rather than as
 * new methods on /api/v1/startups, whose 405 is part of SPEC: GET lists them a page at a time or
 * looks one up by `id` or `slug` (its ETag is what `If-Match` takes), POST creates one, PUT
 * edits one, DELETE removes one or several: the deals' writes, rules and commits (admin-records.ts).
 */
import { requireAdmin } from '../auth/guard.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { wholeParam } from '../http/params.ts';
import { asJsonObject, readBody } from '../http/request-body.ts';
import { createRecord, deleteRecords, describeName, findRecord, notFound, NO_STORE, recordAnswer, type AdminWriteDeps } from './admin-records.ts';
import { STARTUPS } from './record-kinds.ts';
import { withAllErrors } from './record-writes.ts';
import { STARTUP_PAGE } from '../../src/schemas/query.ts';

/** GET `?id=`/`?slug=`: `{ success, startup }` with its ETag; else `limit`, `offset`: `{ success, startups, total }` in the catalog's order. */
export async function getAdminStartups(request: Request, deps: AdminWriteDeps): Promise<Response> {
  await requireAdmin(request, deps);
  const params = new URL(request.url).searchParams;
  const catalog = deps.state().catalog;
  const id = params.get('id') || undefined;
  const slug = params.get('slug') || undefined;
  if (id !== undefined || slug !== undefined) {
    const startup = findRecord(catalog, STARTUPS, { id, slug });
    if (!startup) throw notFound(STARTUPS, describeName({ id, slug }));
    return recordAnswer(request, deps, STARTUPS, startup.slug);
  }
  const limit = Math.min(wholeParam(params, 'limit', STARTUP_PAGE.default, 1), STARTUP_PAGE.max);
  const offset = wholeParam(params, 'offset', 0, 0);
  return answerResponse(request, jsonAnswer(200, { success: true, startups: catalog.startups.slice(offset, offset + limit), total: catalog.startups.length }, NO_STORE));
}

/** POST one startup: `name` and `category` needed; `id`, `slug` (from the name), flags and `lastUpdated` filled. With `?errors=all` a refusal lists every problem. */
export async function postStartups(request: Request, deps: AdminWriteDeps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = asJsonObject(await readBody(request));
  return withAllErrors(request, () => createRecord(request, deps, STARTUPS, session, body));
}

export const deleteStartups = (request: Request, deps: AdminWriteDeps): Promise<Response> => deleteRecords(request, deps, STARTUPS);
