/**
 * The admin writes every kind of record shares (deals: SPEC POST/PUT/DELETE /deals; startups:
 * /admin/startups): create one record, update one by id and/or slug (a new slug renames the
 * file and keeps the id), delete by id, slug or a list of ids. Each request is one commit
 * authored by the admin; `PUT`/`DELETE` (and revert) honour `If-Match` with the ETag of the
 * record's single answer. Drafts (`draft: true`, catalog/drafts.ts) are found, changed and
 * deleted like any record while no public answer shows them; PUT with `draft: false` publishes one.
 */
import { SLUG_PATTERN } from '../../src/schemas/fields.ts';
import { slugify } from '../../src/schemas/slugify.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import type { Diagnostic } from '../../src/pipeline/diagnostics.ts';
import type { ContentRecord } from '../../src/pipeline/record-files.ts';
import { requireAdmin, type SessionDeps } from '../auth/guard.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, assembledRecord, jsonAnswer, matchesEtag } from '../http/answer.ts';
import { recordJson } from '../../src/catalog/record-bytes.ts';

import { ApiError } from '../http/errors.ts';
import { asJsonObject, readBody } from '../http/request-body.ts';
import type { Session } from '../auth/session.ts';
import type { RecordKind } from './record-kinds.ts';
import { applyChange, invalidRecord, withAllErrors, type RecordWriteDeps } from './record-writes.ts';
import { utcDay } from '../utc-day.ts';

/** An admin's session, then a record write. */
export type AdminWriteDeps = SessionDeps & RecordWriteDeps;

/** Admin answers are never stored by caches. */
export const NO_STORE = { 'Cache-Control': 'no-store' };
/** What a slug must be, in the words of the schema's rule (src/schemas/fields.ts `slug()`). */
const SLUG_PROBLEM = 'expected lowercase letters, digits and single hyphens, like `cloud-credits`';

/** Create one record from `body` (already read), as `session`'s admin; answers the record with its ETag. */
export async function createRecord<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>, session: Session, body: Record<string, unknown>): Promise<Response> {
  const today = utcDay(deps.clock());
  if (!named(kind, body)) checkWhole(deps.state().catalog, kind, body, today);
  const slug = slugFor(kind, body, kind.noun);
  await applyChange(deps, kind, (catalog) => {
    if (kind.bySlug(catalog).has(slug)) {
      throw new ApiError(400, 'conflict', `A ${kind.noun} with slug \`${slug}\` already exists.`, { hint: `Choose another slug, or update the ${kind.noun} with PUT.` });
    }
    const record = newRecord(kind, { ...body, slug }, today);
    return { upserts: [record], removals: [], message: `Add ${record.draft === true ? 'draft ' : ''}${kind.noun} ${slug}`, actor: session.email };
  });
  return recordAnswer(request, deps, kind, slug);
}

/**
 * The PUT handler of a kind's route row (`PUT /api/v1/deals`, `/api/v1/admin/startups`): one
 * record updated, and with `?errors=all` every problem of a refused one.
 */
export const putRecord =
  <T extends ContentRecord>(kind: RecordKind<T>) =>
  (request: Request, deps: AdminWriteDeps): Promise<Response> =>
    withAllErrors(request, () => updateRecord(request, deps, kind));

/** PUT: `id` and/or `slug` name the record; every other field given replaces the stored one, `null` removes it. */
export async function updateRecord<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = asJsonObject(await readBody(request));
  const id = optionalText(kind, body.id, 'id');
  const slug = optionalText(kind, body.slug, 'slug');
  if (id === undefined && slug === undefined) throw invalid(kind, `id or slug is required to name the ${kind.noun} to update.`);
  const changes: Record<string, unknown> = { ...body };
  delete changes.id;
  const today = utcDay(deps.clock());
  let finalSlug = '';
  await applyChange(deps, kind, (catalog) => {
    // With an id, the id names the record and a different slug renames it. Drafts too: `draft: false` (or `null`) publishes one.
    const current = id !== undefined ? kind.byId(catalog).get(id) : findRecord(catalog, kind, { slug });
    if (!current) throw notFound(kind, id !== undefined ? `id \`${id}\`` : `slug \`${slug}\``);
    checkIfMatch(request, kind, current);
    const updated = merge(current, changes, today);
    finalSlug = updated.slug;
    return {
      ...replacing(catalog, kind, current, updated),
      message: updated.slug !== current.slug ? `Rename ${kind.noun} ${current.slug} to ${updated.slug}` : `${updateVerb(current, updated)} ${kind.noun} ${current.slug}`,
      actor: session.email,
    };
  });
  return recordAnswer(request, deps, kind, finalSlug);
}

/** DELETE `?id=`, `?ids=a,b` or `?slug=`: every record named must exist; one commit. */
export async function deleteRecords<T extends ContentRecord>(request: Request, deps: AdminWriteDeps, kind: RecordKind<T>): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const params = new URL(request.url).searchParams;
  const ids = [...(params.get('ids') ?? '').split(','), params.get('id') ?? ''].map((s) => s.trim()).filter(Boolean);
  const slug = params.get('slug')?.trim() || undefined;
  if (ids.length === 0 && slug === undefined) throw invalid(kind, `id, ids or slug is required to name the ${kind.noun}s to delete.`);
  let records: T[] = [];
  await applyChange(deps, kind, (catalog) => {
    const targets = new Map<string, T>();
    const missing: string[] = [];
    for (const id of ids) {
      const record = kind.byId(catalog).get(id);
      if (record) targets.set(record.slug, record);
      else missing.push(`id \`${id}\``);
    }
    if (slug !== undefined) {
      const record = kind.bySlug(catalog).get(slug);
      if (record) targets.set(record.slug, record);
      else missing.push(`slug \`${slug}\``);
    }
    if (missing.length > 0) throw notFound(kind, missing.join(', '));
    records = [...targets.values()];
    if (records.length === 1) checkIfMatch(request, kind, records[0] as T);
    else if (request.headers.has('if-match')) throw invalid(kind, `If-Match names one ${kind.noun}'s version; a delete of ${records.length} cannot be checked against it.`);
    return {
      upserts: [],
      removals: records.map((r) => r.slug),
      message: records.length === 1 ? `Delete ${kind.noun} ${records[0]?.slug}` : `Delete ${records.length} ${kind.noun}s`,
      actor: session.email,
    };
  });
  return answerResponse(request, jsonAnswer(200, { success: true, deleted: records.length, ids: records.map((r) => r.id), slugs: records.map((r) => r.slug) }, NO_STORE));
}

/**
 * The ETag of a record's single answer (`{ success, deal }` of GET /deals?id=, `{ success,
 * startup }` of GET /admin/startups?id=), for `If-Match`.
 */
export function recordEtag<T extends ContentRecord>(kind: RecordKind<T>, record: T): string {
  return assembledRecord(`{"success":true,"${kind.noun}":`, record, recordJson(record), '}', {}).etag;
}

/** The answer after a write: the record as readers now see it, with its ETag, and `extra` fields. */
export function recordAnswer<T extends ContentRecord>(request: Request, deps: Pick<Deps, 'state'>, kind: RecordKind<T>, slug: string, extra: Record<string, unknown> = {}): Promise<Response> {
  const record = kind.bySlug(deps.state().catalog).get(slug);
  const answer = jsonAnswer(200, { success: true, [kind.noun]: record, ...extra }, { ...NO_STORE, ...(record ? { ETag: recordEtag(kind, record) } : {}) });
  return answerResponse(request, answer);
}

/** The record named by `id` or `slug`, if the catalog has it (DESIGN: given both, both must name it). */
export function findRecord<T extends ContentRecord>(catalog: Catalog, kind: RecordKind<T>, name: { id?: string | undefined; slug?: string | undefined }): T | undefined {
  const byId = name.id === undefined ? undefined : kind.byId(catalog).get(name.id);
  const bySlug = name.slug === undefined ? undefined : kind.bySlug(catalog).get(name.slug);
  if (name.id !== undefined && name.slug !== undefined) return byId === bySlug ? byId : undefined;
  return byId ?? bySlug;
}

/** How a request named a record, for messages: ``id `d-1` and slug `acme` ``. */
export function describeName(name: { id?: string | undefined; slug?: string | undefined }): string {
  return [name.id === undefined ? '' : `id \`${name.id}\``, name.slug === undefined ? '' : `slug \`${name.slug}\``].filter(Boolean).join(' and ');
}

/**
 * The upserts and removals that put `updated` in place of `current` (the old file goes when the
 * slug changed); a slug another record has is a 400 `conflict`.
 */
export function replacing<T extends ContentRecord>(catalog: Catalog, kind: RecordKind<T>, current: T | undefined, updated: T): { upserts: T[]; removals: string[] } {
  const renamed = current !== undefined && updated.slug !== current.slug;
  if ((renamed || current === undefined) && kind.bySlug(catalog).has(updated.slug)) {
    throw new ApiError(400, 'conflict', `A ${kind.noun} with slug \`${updated.slug}\` already exists.`, { hint: 'Choose another slug.' });
  }
  return { upserts: [updated], removals: renamed ? [current.slug] : [] };
}

/**
 * 412 when `If-Match` (if sent) does not name the record as it is now; a weak tag never matches
 * a write, and nothing matches a record that does not exist (RFC 9110 §13.1.1).
 */
export function checkIfMatch<T extends ContentRecord>(request: Request, kind: RecordKind<T>, record: T | undefined): void {
  const ifMatch = request.headers.get('if-match');
  if (ifMatch === null) return;
  if (!record || !matchesStrongly(ifMatch, recordEtag(kind, record))) {
    throw new ApiError(412, 'conflict', `The ${kind.noun} has changed since you read it.`, {
      hint: `GET the ${kind.noun} again, re-apply your change and send the new ETag in If-Match.`,
    });
  }
}

/**
 * The record a body describes, as saving it would store it (before validation), for a preview:
 * with the `id` of a stored record (a draft too), the body's fields over it, as PUT applies them;
 * otherwise a new record, as POST makes it. `replaces`: the stored record it would change.
 */
export function recordFromBody<T extends ContentRecord>(catalog: Catalog, kind: RecordKind<T>, body: Record<string, unknown>, today: string): { record: T; replaces: T | undefined } {
  const replaces = typeof body.id === 'string' ? kind.byId(catalog).get(body.id) : undefined;
  if (replaces) return { record: merge(replaces, body, today), replaces };
  if (!named(kind, body)) checkWhole(catalog, kind, body, today);
  return { record: newRecord(kind, { ...body, slug: slugFor(kind, body, kind.noun) }, today), replaces };
}

/** A new record: the kind's defaults and today's `lastUpdated` under what was sent, and an id unless one was sent. */
export function newRecord<T extends ContentRecord>(kind: RecordKind<T>, input: Record<string, unknown>, today: string): T {
  return { ...kind.defaults, lastUpdated: today, ...input, id: typeof input.id === 'string' && input.id ? input.id : kind.newId() } as unknown as T;
}

/** Apply changed fields; `null` removes an optional field. `lastUpdated` moves to today unless given. */
export function merge<T extends ContentRecord>(current: T, changes: Record<string, unknown>, today: string): T {
  const next: Record<string, unknown> = { ...(current as unknown as Record<string, unknown>), lastUpdated: today };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  next.id = current.id;
  return next as T;
}

/** The slug given, or one made from the record's title or name. */
export function slugFor<T extends ContentRecord>(kind: RecordKind<T>, input: Record<string, unknown>, where: string): string {
  if (typeof input.slug === 'string' && input.slug) {
    if (!SLUG_PATTERN.test(input.slug)) throw invalid(kind, `${where}.slug: ${SLUG_PROBLEM}.`);
    return input.slug;
  }
  const label = input[kind.label];
  const slug = typeof label === 'string' ? slugify(label) : '';
  if (slug) return slug;
  throw invalid(kind, `${where}: a slug or a ${kind.label} is required.`);
}

/** A text field naming a record, or undefined when left out. */
export function optionalText<T extends ContentRecord>(kind: RecordKind<T>, value: unknown, name: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(kind, `${name} must be a string.`);
  return value;
}

export function invalid<T extends ContentRecord>(kind: RecordKind<T>, message: string): ApiError {
  return new ApiError(400, 'validation_error', message, { hint: `See /openapi.json for the ${kind.schema} fields and these operations.` });
}

export function notFound<T extends ContentRecord>(kind: RecordKind<T>, what: string): ApiError {
  return new ApiError(404, 'not_found', `No ${kind.noun} matches ${what}.`, { hint: `Verify the id or slug with ${kind.lookup}.` });
}

// --- internal ---

/** Whether a body gives a well-formed slug, or none and a title (name) a slug can be made of. */
function named<T extends ContentRecord>(kind: RecordKind<T>, body: Record<string, unknown>): boolean {
  const label = body[kind.label];
  if (typeof body.slug === 'string' && body.slug !== '') return SLUG_PATTERN.test(body.slug);
  return typeof label === 'string' && slugify(label) !== '';
}

/**
 * A new record without a usable slug (none and no title, or a malformed one) is refused with
 * every problem it has, checked as saving would check it (issue 16: a form shows them all at
 * once, not the slug first and the rest on the next try). Returns only when validation finds
 * nothing; `slugFor` then refuses.
 */
function checkWhole<T extends ContentRecord>(catalog: Catalog, kind: RecordKind<T>, body: Record<string, unknown>, today: string): void {
  const malformed = typeof body.slug === 'string' && body.slug !== '';
  const record = newRecord(kind, { ...body, slug: 'unnamed' }, today);
  const checked = new ContentSnapshot(catalog).withChanges(kind.files, [record], [], today);
  const slugProblem: Diagnostic = { severity: 'error', code: 'invalid_value', file: '', field: 'slug', message: SLUG_PROBLEM };
  const diagnostics = [...(malformed ? [slugProblem] : []), ...checked.diagnostics];
  if (diagnostics.some((d) => d.severity === 'error')) throw invalidRecord(kind, diagnostics);
}

/** How a commit names an update: publishing a draft and taking a record back to drafts are told apart. */
function updateVerb(current: ContentRecord, updated: ContentRecord): string {
  if (current.draft === true && updated.draft !== true) return 'Publish';
  if (current.draft !== true && updated.draft === true) return 'Unpublish';
  return 'Update';
}

/** `If-Match` by strong comparison (RFC 9110 §8.8.3.2): `*`, or one listed tag that is not weak and names the record. */
function matchesStrongly(ifMatch: string, etag: string): boolean {
  if (ifMatch.trim() === '*') return true;
  return ifMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return !tag.startsWith('W/') && matchesEtag(tag, etag);
  });
}
