/**
 * History and revert of one deal or startup (admin only), read from the content repository's
 * commits through the content store, whether they were made through the admin or by hand in git:
 * - GET …/history lists the commits that changed the record's file, newest first, a page at a
 *   time, following renames (a slug change) back to earlier names; each with who, when, the
 *   commit message, `via` (this service or by hand), and every field that changed, old → new;
 * - POST …/revert puts the version one of those commits made back, as a new commit authored
 *   by the admin, through the same write path as an edit (validation, `If-Match`, one commit).
 * A record that was deleted is named by its slug, for its history and to restore it.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { fieldChanges } from '../../src/catalog/field-changes.ts';
import { readRecordText } from '../../src/catalog/change-entries.ts';
import { recordPath, type ContentRecord } from '../../src/pipeline/record-files.ts';
import type { RecordVersion } from '../../src/schemas/answers.ts';
import { slug as slugField } from '../../src/schemas/fields.ts';
import { RevertSchema } from '../../src/schemas/requests.ts';
import { requireAdmin } from '../auth/guard.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { invalidParameter, wholeParam } from '../http/params.ts';
import { validBody } from '../http/valid-body.ts';
import { StoreUnavailableError, type FileCommit } from '../store/content-store.ts';
import { checkIfMatch, describeName, findRecord, invalid, notFound, NO_STORE, recordAnswer, replacing, type AdminWriteDeps } from './admin-records.ts';
import { DEALS, STARTUPS, type RecordKind } from './record-kinds.ts';
import { applyChange } from './record-writes.ts';
import { HISTORY_PAGE, HISTORY_REACH } from '../../src/schemas/query.ts';

/** GET `?id=` or `?slug=`, `limit`, `offset`: `{ success, id, slug, history, offset, limit, more }`. */
export async function getHistory<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>): Promise<Response> {
  await requireAdmin(request, deps);
  const params = new URL(request.url).searchParams;
  const limit = Math.min(wholeParam(params, 'limit', HISTORY_PAGE.default, 1), HISTORY_PAGE.max);
  const offset = wholeParam(params, 'offset', 0, 0);
  if (offset >= HISTORY_REACH) throw invalidParameter({ name: 'offset', message: `the history reaches back ${HISTORY_REACH} changes`, allowed: `whole numbers from 0 to ${HISTORY_REACH - 1}` });
  const { record, slug, path } = locate(deps.state().catalog, kind, { id: params.get('id') || undefined, slug: params.get('slug') || undefined });
  // One more than the page: whether older versions follow.
  const commits = await storeRead(deps, () => deps.store.history(path, { offset, limit: limit + 1 }));
  if (!record && offset === 0 && commits.length === 0) throw notFound(kind, `slug \`${slug}\`, now or in the content history`);
  const page = commits.slice(0, limit);
  const texts = await storeRead(deps, () =>
    deps.store.readAt(
      page.flatMap((c) => [
        { commit: c.parent ?? '', path: c.previousPath },
        { commit: c.commit, path: c.path },
      ]),
    ),
  );
  const history = page.map((commit, i) => versionOf(kind, commit, texts[2 * i], texts[2 * i + 1]));
  const body = { success: true, ...(record ? { id: record.id } : {}), slug, history, offset, limit, more: commits.length > limit };
  return answerResponse(request, jsonAnswer(200, body, NO_STORE));
}

/** POST `{ id | slug, commit }`: the version `commit` made, back as a new commit; answers the record, the commit, `revertedTo`. */
export async function postRevert<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = await validBody(request, RevertSchema);
  // Read outside the write queue (a commit's text never changes): a long history search holds up no other write.
  const version = await versionAt(deps, kind, locate(deps.state().catalog, kind, body).path, body.commit);
  const { commit } = await applyChange(deps, kind, (catalog) => {
    const { record } = locate(catalog, kind, body);
    checkIfMatch(request, kind, record);
    return { ...replacing(catalog, kind, record, version), message: `Revert ${kind.noun} ${version.slug} to ${body.commit.slice(0, 12)}`, actor: session.email };
  });
  return recordAnswer(request, deps, kind, version.slug, { ...(commit ? { commit } : {}), revertedTo: body.commit });
}

export const getDealHistory = (request: Request, deps: AdminWriteDeps): Promise<Response> => getHistory(request, deps, DEALS);
export const postDealRevert = (request: Request, deps: AdminWriteDeps): Promise<Response> => postRevert(request, deps, DEALS);
export const getStartupHistory = (request: Request, deps: AdminWriteDeps): Promise<Response> => getHistory(request, deps, STARTUPS);
export const postStartupRevert = (request: Request, deps: AdminWriteDeps): Promise<Response> => postRevert(request, deps, STARTUPS);

// --- internal ---

/**
 * The record named (with its file), or, for a slug the catalog no longer has, that slug's file
 * (a deleted record's history). An unknown id is a 404: ids are not file names.
 */
function locate<T extends ContentRecord>(catalog: Catalog, kind: RecordKind<T>, name: { id?: string | undefined; slug?: string | undefined }): { record: T | undefined; slug: string; path: string } {
  const { id, slug } = name;
  if (id === undefined && slug === undefined) throw invalid(kind, `id or slug is required to name the ${kind.noun}.`);
  const record = findRecord(catalog, kind, name);
  if (record) return { record, slug: record.slug, path: recordPath(kind.files, record.slug) };
  if (id !== undefined || slug === undefined) throw notFound(kind, describeName(name));
  if (!slugField().safeParse(slug).success) throw invalid(kind, 'slug: expected at most 120 lowercase letters, digits and single hyphens, like `cloud-credits`.');
  return { record: undefined, slug, path: recordPath(kind.files, slug) };
}

/** One history entry: the commit, and the fields that differ between the file's text before and after it. */
function versionOf<T extends ContentRecord>(kind: RecordKind<T>, commit: FileCommit, before: string | undefined, after: string | undefined): RecordVersion {
  const older = readVersion(kind, commit.previousPath, before);
  const newer = readVersion(kind, commit.path, after);
  const problem = newer.problem ?? older.problem;
  const order = ['slug', ...kind.files.frontMatterKeys, 'description'];
  const renamed = commit.previousPath !== commit.path && before !== undefined && after !== undefined;
  return {
    commit: commit.commit,
    date: commit.date,
    author: commit.author,
    message: commit.message,
    via: commit.byStore ? 'admin' : 'git',
    change: after === undefined ? 'deleted' : before === undefined ? 'created' : renamed ? 'renamed' : 'updated',
    slug: slugOf(after === undefined ? commit.previousPath : commit.path),
    fields: problem ? [] : fieldChanges(older.record, newer.record, order),
    ...(problem ? { problem } : {}),
  };
}

/** A version's fields as written (not validated: a hand commit may hold what the build refuses). */
function readVersion<T extends ContentRecord>(kind: RecordKind<T>, path: string, text: string | undefined): { record: Record<string, unknown>; problem?: string } {
  if (text === undefined) return { record: {} };
  const read = readRecordText(recordPath(kind.files, slugOf(path)), text);
  return 'record' in read ? read : { record: {}, problem: read.problem };
}

/** The record as `commit` left it, from the record's history (within its latest `HISTORY_REACH` changes). */
async function versionAt<T extends ContentRecord>(deps: Pick<Deps, 'store' | 'log'>, kind: RecordKind<T>, path: string, commit: string): Promise<T> {
  const commits = await storeRead(deps, () => deps.store.history(path, { offset: 0, limit: HISTORY_REACH }));
  const found = commits.find((c) => c.commit === commit);
  if (!found) {
    throw new ApiError(404, 'not_found', `Commit \`${commit}\` did not change this ${kind.noun} (among its last ${HISTORY_REACH} changes).`, {
      hint: `Choose a commit from GET /api/v1/admin/${kind.files.folder}/history.`,
    });
  }
  const [text] = await storeRead(deps, () => deps.store.readAt([{ commit, path: found.path }]));
  if (text === undefined) throw invalid(kind, `commit: \`${commit}\` deleted the ${kind.noun}; choose a version before it.`);
  const version = readVersion(kind, found.path, text);
  if (version.problem !== undefined) throw invalid(kind, `commit: the ${kind.noun}'s file at \`${commit}\` cannot be read (${version.problem}).`);
  return version.record as unknown as T;
}

/** The slug a record file's name gives (`deals/acme.md` → `acme`). */
function slugOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
}

/** A history read; a store that cannot read its history answers 503 (nothing is changed). */
async function storeRead<R>(deps: Pick<Deps, 'log'>, read: () => Promise<R>): Promise<R> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    deps.log.error('store_unavailable', { operation: 'history', error: String(error.cause ?? error.message) });
    throw new ApiError(503, 'service_unavailable', 'The content history cannot be read right now.', { hint: 'Nothing was changed; try again in a minute.', headers: { 'Retry-After': '60' } });
  }
}
