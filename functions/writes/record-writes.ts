/**
 * Every admin change to deals and startups goes through here, one at a time: check the change
 * against the whole catalog (the build's own validation), commit it to the content store, then
 * serve the new catalog, and only then answer. A change that fails validation is never
 * written; one the store cannot take leaves nothing behind (503).
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { Diagnostic } from '../../src/pipeline/diagnostics.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { recordPath, type ContentRecord } from '../../src/pipeline/record-files.ts';
import type { Deps } from '../deps.ts';
import { ApiError, type FieldError } from '../http/errors.ts';
import { StoreConflictError, StoreUnavailableError, type ContentChange } from '../store/content-store.ts';
import type { RecordKind } from './record-kinds.ts';
import { logoChangesFor } from './record-logos.ts';
import { logoOfPath } from '../../src/logos/logo-files.ts';
import { utcDay } from '../utc-day.ts';

/** What a record write uses: the write queue and the store it commits to, the catalog it checks against and replaces, the time, the log. */
export type RecordWriteDeps = Pick<Deps, 'content' | 'store' | 'state' | 'replaceCatalog' | 'clock' | 'log' | 'logos'>;

export interface RecordChange<T extends ContentRecord> {
  /** Records to write, as they should be stored (by slug). */
  upserts: T[];
  /** Slugs whose files go (including a renamed record's old slug). */
  removals: string[];
  message: string;
  actor: string;
  /** Other files of the same commit: a logo image uploaded for a record (admin-logos.ts). */
  files?: ContentChange[];
  /**
   * Runs in the queue once the change is committed and served (marking an approved submission
   * in the private store), so no other change on this instance comes in between; it runs
   * alone when there is nothing to write (an approval retried after its deal went out).
   */
  afterCommit?: () => Promise<void>;
}

/**
 * Apply one change to records of one kind; resolves with the commit once readers see it.
 * `plan` runs in the queue against the catalog as it is then, so two writes to one record
 * never work from the same stale copy (no lost update); it may throw an ApiError to refuse.
 * @example await applyChange(deps, STARTUPS, (catalog) => ({ upserts: [startup], removals: [], message: 'Add startup x', actor: 'ann@example.com' }))
 */
export function applyChange<T extends ContentRecord>(
  deps: RecordWriteDeps,
  kind: RecordKind<T>,
  plan: (catalog: Catalog) => RecordChange<T> | Promise<RecordChange<T>>,
): Promise<{ commit: string | undefined }> {
  return deps.content.exclusive(async () => {
    const current = deps.state().catalog;
    const change = await plan(current);
    const changesRecords = change.upserts.length > 0 || change.removals.length > 0;
    if (!changesRecords && !change.files?.length) {
      await change.afterCommit?.();
      return { commit: deps.content.status().indexedCommit };
    }
    const today = utcDay(deps.clock());
    const next = changesRecords ? new ContentSnapshot(current).withChanges(kind.files, change.upserts, change.removals, today, await filesOf(deps, kind, current, change.upserts)) : undefined;
    if (next && !next.value) throw invalidRecord(kind, next.diagnostics);
    const written = new Set(change.upserts.map((r) => r.slug));
    let nextCatalog = current;
    const files: ContentChange[] = [
      ...change.removals.filter((slug) => !written.has(slug)).map((slug) => ({ path: recordPath(kind.files, slug), text: null })),
      ...(next?.value?.files ?? []).map((file) => ({ path: recordPath(kind.files, file.slug), text: file.text })),
      // A renamed or deleted record's logo goes with it.
      ...(await logoChangesFor(deps.store, kind, current, change)),
      ...(change.files ?? []),
    ];
    let result: { commit: string; integrated?: boolean };
    try {
      const committing = deps.store.commit(files, { message: change.message, author: { name: change.actor, email: change.actor } });
      // Build the next catalog while git works in its own processes; serve it only once committed.
      if (next?.value) nextCatalog = kind.nextCatalog(current, next.value);
      result = await committing;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // A failed publish may have moved the tree to the remote's newest commit.
      await catchUpQuietly(deps);
      throw storeRefusal(error, deps);
    }
    if (result.integrated) {
      // Other instances' commits came in under this one: serve the tree as it now is (logos too).
      await catchUpQuietly(deps);
    } else {
      if (nextCatalog !== current) deps.replaceCatalog(nextCatalog);
      deps.content.served(result.commit);
      await deps.logos.refresh(files.map((file) => logoOfPath(file.path)).filter((logo) => logo !== undefined));
    }
    await change.afterCommit?.();
    return { commit: result.commit };
  });
}

/** The answer when the content store refused a write: 503, nothing changed. */
export function storeRefusal(error: StoreUnavailableError, deps: Pick<Deps, 'log'>): ApiError {
  if (error instanceof StoreConflictError) {
    deps.log.warn('store_conflict', { error: error.message });
    return new ApiError(503, 'service_unavailable', 'Another instance changed the same content at the same moment.', {
      hint: 'Nothing was changed; send the request again.',
      headers: { 'Retry-After': '1' },
    });
  }
  deps.log.error('store_unavailable', { operation: 'write', error: String(error.cause ?? error.message) });
  return new ApiError(503, 'service_unavailable', 'The content store cannot take changes right now.', {
    hint: 'Nothing was changed; try again in a minute.',
    headers: { 'Retry-After': '60' },
  });
}

/**
 * The 400 for a record the build's validation refuses: its first error, as the API words it;
 * every field's first error waits in `problems` for a caller that asked for them all
 * ({@link withAllErrors}).
 */
export function invalidRecord<T extends ContentRecord>(kind: RecordKind<T>, diagnostics: readonly Diagnostic[]): InvalidRecord {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  const problems = new Map<string, string>();
  for (const d of errors) if (d.field && !problems.has(d.field)) problems.set(d.field, d.message);
  return new InvalidRecord(
    first ? describe(first) : `The ${kind.noun} is not valid.`,
    `Fix the named field; GET /openapi.json describes every ${kind.schema} field.`,
    [...problems].map(([field, message]) => ({ field, message })),
  );
}

/** A record the build's validation refuses; `problems`: every field's first problem, that of `error` first. */
export class InvalidRecord extends ApiError {
  readonly problems: FieldError[];

  constructor(message: string, hint: string, problems: FieldError[]) {
    super(400, 'validation_error', message, { hint });
    this.problems = problems;
  }
}

/**
 * Run an admin write; with `?errors=all` (as POST /submit-deal takes it) a refusal by validation
 * lists every field's problem in `fields` (issue 16: the admin form shows them all at once).
 * Without it the error object keeps only its usual fields.
 * @example return withAllErrors(request, () => updateRecord(request, deps, DEALS))
 */
export async function withAllErrors(request: Request, write: () => Promise<Response>): Promise<Response> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof InvalidRecord) || error.problems.length === 0 || new URL(request.url).searchParams.get('errors') !== 'all') throw error;
    throw new ApiError(error.status, error.code, error.message, { ...(error.hint === undefined ? {} : { hint: error.hint }), fields: error.problems });
  }
}

// --- internal ---

/**
 * Serve the tree as it is now, around a commit whose fate is already decided: a failure here is
 * logged (health shows it, the next pull retries) and never turns a durable write into an error.
 */
async function catchUpQuietly(deps: Pick<Deps, 'content' | 'log'>): Promise<void> {
  try {
    await deps.content.catchUpNow();
  } catch (error) {
    deps.log.error('catch_up_failed', { error: String(error instanceof Error ? error.message : error) });
  }
}

/**
 * The current text of the file of each upserted record the catalog already has (by id, so a
 * renamed record's old file), by that file's slug: an update edits the file an editor wrote
 * instead of writing it anew.
 */
async function filesOf<T extends ContentRecord>(deps: Pick<Deps, 'store'>, kind: RecordKind<T>, catalog: Catalog, upserts: readonly T[]): Promise<Map<string, string>> {
  const slugs = upserts.map((record) => kind.byId(catalog).get(record.id)?.slug).filter((slug): slug is string => slug !== undefined);
  const texts = new Map<string, string>();
  // A few at a time: a bulk upsert of thousands must not open thousands of files at once.
  for (let i = 0; i < slugs.length; i += 64) {
    const chunk = slugs.slice(i, i + 64);
    const read = await Promise.all(chunk.map((slug) => deps.store.read(recordPath(kind.files, slug))));
    chunk.forEach((slug, j) => {
      const text = read[j];
      if (text !== undefined) texts.set(slug, text);
    });
  }
  return texts;
}

/** A diagnostic as an API message: the field and the rule, without the file path. */
function describe(diagnostic: Diagnostic): string {
  return diagnostic.field ? `${diagnostic.field}: ${diagnostic.message}` : diagnostic.message;
}
