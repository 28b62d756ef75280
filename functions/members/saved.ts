/**
 * A member's saved deals and startups (issue 18, item 3): GET, POST and DELETE
 * /api/v1/me/saved. For people in a browser only: the same-origin session cookie, never a
 * credential for agents. A save button is a plain HTML form (POST; `action=remove` removes,
 * since a form cannot DELETE) answered with a 303 back to its page; the pages' script sends
 * JSON and gets JSON. Answers are personal: `Cache-Control: private, no-store`.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { isFormBody } from '../http/request-body.ts';
import { validBody } from '../http/valid-body.ts';
import { currentSession, memberOrForm, requireMember, requireSameOrigin } from '../auth/guard.ts';
import { redirect } from '../auth/sign-in.ts';
import { needsPlan, planPage, planRequired, requirePlan } from '../billing/plan-guard.ts';
import { utcDay } from '../utc-day.ts';
import { savedIds, savedItemViews } from '../../src/catalog/saved-items.ts';
import { snapshotOf } from '../../src/catalog/saved-changes.ts';
import { localPath, withFlag } from '../../src/local-path.ts';
import { MAX_SAVED_ITEMS, SAVED_KINDS, SavedItemRequestSchema, type SavedItems, type SavedKind } from '../../src/schemas/saved.ts';

export type SavedDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config'>;

/** Where a form post goes when its `next` is missing or not a path of this site. */
export const SAVED_PAGE = '/account/saved/';
const PERSONAL = { 'Cache-Control': 'private, no-store' };

/** GET /me/saved: the member's saved items, newest first, as the catalog serves them now (402 when saving needs a plan the member lacks). */
export async function getSaved(request: Request, deps: SavedDeps): Promise<Response> {
  const session = await requireMember(request, deps);
  await requirePlan('saved', session, deps);
  return answerResponse(request, jsonAnswer(200, await savedList(session.email, deps), PERSONAL));
}

/**
 * The saved items of an account (the API answer; the /account/saved/ page renders the same).
 * @example (await savedList('mel@example.com', deps)).items[0]?.state // 'live'
 */
export async function savedList(email: string, deps: SavedDeps): Promise<SavedItems> {
  const rows = await deps.auth.accounts.memberData(({ saved }) => saved.list(email));
  const items = savedItemViews(rows, deps.state().catalog, utcDay(deps.clock()));
  return { success: true, items, ids: savedIds(rows), total: items.length, max: MAX_SAVED_ITEMS };
}

/**
 * The saved items of the request's session, undefined without one, or `plan_required` when
 * saving needs a plan the member lacks (the server-rendered /account/saved/ page).
 */
export async function signedInSavedList(request: Request, deps: SavedDeps): Promise<SavedItems | 'plan_required' | undefined> {
  const session = await currentSession(request, deps);
  if (!session) return undefined;
  return (await needsPlan('saved', session, deps)) ? 'plan_required' : savedList(session.email, deps);
}

/**
 * POST /me/saved `{ kind, id }` (JSON or a form): save the record (idempotent), or with
 * `action: remove` take it off the list. A form post without a session goes to /login with the
 * page to come back to; with one, back to `next` (`?saved=1` or `?removed=1`). Saving may need
 * a plan (402; a form goes to the billing page); removing never does: a list stays the member's
 * to empty.
 */
export async function postSaved(request: Request, deps: SavedDeps): Promise<Response> {
  const form = isFormBody(request);
  // A form's `next` is read first, to come back to after signing in.
  const session = await memberOrForm(request, deps, form);
  requireSameOrigin(request, deps);
  const body = await validBody(request, SavedItemRequestSchema, 4 * 1024);
  const next = localPath(body.next) ?? SAVED_PAGE;
  if (!session) return redirect(`/login?next=${encodeURIComponent(next)}`);
  if (body.action !== 'remove' && (await needsPlan('saved', session, deps))) {
    if (form) return redirect(planPage('saved'));
    throw planRequired('saved');
  }
  const saved = body.action === 'remove' ? await remove(session.email, body.kind, body.id, deps) : await save(session.email, body.kind, body.id, deps);
  if (form) return redirect(withFlag(next, saved ? 'saved' : 'removed', saved ? 'saved-note' : 'removed-note'));
  return changed(request, body.kind, body.id, saved, session.email, deps);
}

/** DELETE /me/saved?kind=&id=: take an item off the list (idempotent: removing one not saved is no error). */
export async function deleteSaved(request: Request, deps: SavedDeps): Promise<Response> {
  const session = await requireMember(request, deps);
  const params = new URL(request.url).searchParams;
  const kind = params.get('kind') ?? '';
  const id = params.get('id') ?? '';
  if (!(SAVED_KINDS as readonly string[]).includes(kind)) throw new ApiError(400, 'validation_error', '`kind` expected one of `deal` | `startup`.', { hint: 'Name the item: ?kind=deal&id=<id>.' });
  if (!id) throw new ApiError(400, 'validation_error', '`id` is required (the record id).', { hint: 'Name the item: ?kind=deal&id=<id>.' });
  await remove(session.email, kind as SavedKind, id, deps);
  return changed(request, kind as SavedKind, id, false, session.email, deps);
}

// --- internal ---

/** Save a record the catalog serves now (404 otherwise); 400 `conflict` when the list is full. @returns true (saved) */
async function save(email: string, kind: SavedKind, id: string, deps: SavedDeps): Promise<true> {
  const catalog = deps.state().catalog;
  const record = kind === 'deal' ? catalog.dealById.get(id) : catalog.startupById.get(id);
  if (!record) {
    throw new ApiError(404, 'not_found', `No ${kind} has id \`${id}\`.`, { hint: `Verify the id: GET /api/v1/${kind === 'deal' ? 'deals' : 'startups'} lists each record's \`id\`.` });
  }
  const title = 'title' in record ? record.title : record.name;
  const snapshot = snapshotOf({ kind, recordId: id, title }, catalog, utcDay(deps.clock()));
  const outcome = await deps.auth.accounts.memberData(({ saved }) => saved.add(email, { kind, recordId: id, title, slug: record.slug }, snapshot, deps.clock()), 'Saving an item');
  if (outcome === 'full') {
    // 400 `conflict`, as a duplicate slug is (SPEC "Errors": the API's conflicts are 400s).
    throw new ApiError(400, 'conflict', `Your list holds ${MAX_SAVED_ITEMS} items, the most an account keeps.`, { hint: `Remove some on ${SAVED_PAGE}, then save this one again.` });
  }
  return true;
}

async function remove(email: string, kind: SavedKind, id: string, deps: SavedDeps): Promise<false> {
  await deps.auth.accounts.memberData(({ saved }) => saved.remove(email, kind, id), 'Removing a saved item');
  return false;
}

async function changed(request: Request, kind: SavedKind, id: string, saved: boolean, email: string, deps: SavedDeps): Promise<Response> {
  const total = await deps.auth.accounts.memberData(({ saved }) => saved.count(email));
  return answerResponse(request, jsonAnswer(200, { success: true, kind, id, saved, total }, PERSONAL));
}
