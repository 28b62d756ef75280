/**
 * Every admin change to deals goes through here, one at a time: check the change against the
 * whole catalog (the build's own validation), commit it to the content store, then serve the
 * new catalog, and only then answer. A change that fails validation is never written; one the
 * store cannot take leaves nothing behind (503).
 */
import { withChangedDeals, type Catalog } from '../../src/catalog/catalog.ts';
import type { Diagnostic } from '../../src/pipeline/diagnostics.ts';
import { ContentSnapshot, dealFileText, dealPath } from '../../src/pipeline/content-snapshot.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { StoreConflictError, StoreUnavailableError, type ContentChange } from '../store/content-store.ts';

/** What a deal write uses: the write queue and the store it commits to, the catalog it checks against and replaces, the time, the log. */
export type DealWriteDeps = Pick<Deps, 'content' | 'store' | 'state' | 'replaceCatalog' | 'clock' | 'log'>;

export interface DealChange {
  /** Deals to write, as they should be stored (by slug). */
  upserts: Deal[];
  /** Slugs whose files go (including a renamed deal's old slug). */
  removals: string[];
  message: string;
  actor: string;
  /**
   * Runs in the queue once the change is committed and served (marking an approved submission
   * in the private store), so no other change on this instance comes in between; it runs
   * alone when there is nothing to write (an approval retried after its deal went out).
   */
  afterCommit?: () => Promise<void>;
}

/**
 * Apply one change; resolves with the commit once readers see it. `plan` runs in the queue
 * against the catalog as it is then, so two writes to one deal never work from the same
 * stale copy (no lost update); it may throw an ApiError to refuse.
 * @example await applyDealChange(deps, (catalog) => ({ upserts: [deal], removals: [], message: 'Add x', actor: 'ann@example.com' }))
 */
export function applyDealChange(deps: DealWriteDeps, plan: (catalog: Catalog) => DealChange | Promise<DealChange>): Promise<{ commit: string | undefined }> {
  return deps.content.exclusive(async () => {
    const current = deps.state().catalog;
    const change = await plan(current);
    if (change.upserts.length === 0 && change.removals.length === 0) {
      await change.afterCommit?.();
      return { commit: deps.content.status().indexedCommit };
    }
    const today = deps.clock().toISOString().slice(0, 10);
    const next = new ContentSnapshot(current).withDealChanges(change.upserts, change.removals, today);
    if (!next.value) throw invalidDeal(next.diagnostics);
    // Files hold the validated records (defaults filled), exactly as a build would read them back.
    const stored = new Map([...next.value.data.deals, ...(next.value.data.drafts?.deals ?? [])].map((d) => [d.slug, d]));
    const written = new Set(change.upserts.map((d) => d.slug));
    let nextCatalog: Catalog;
    const files: ContentChange[] = [
      ...change.removals.filter((slug) => !written.has(slug)).map((slug) => ({ path: dealPath(slug), text: null })),
      ...change.upserts.map((deal) => ({ path: dealPath(deal.slug), text: dealFileText(stored.get(deal.slug) ?? deal) })),
    ];
    let result: { commit: string; integrated?: boolean };
    try {
      const committing = deps.store.commit(files, { message: change.message, author: { name: change.actor, email: change.actor } });
      // Build the next catalog while git works in its own processes; serve it only once committed.
      nextCatalog = withChangedDeals(current, next.value.data, next.value.changed, next.value.removedIds);
      result = await committing;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // A failed publish may have moved the tree to the remote's newest commit.
      await deps.content.catchUpNow();
      throw storeRefusal(error, deps);
    }
    if (result.integrated) {
      // Other instances' commits came in under this one: serve the tree as it now is.
      await deps.content.catchUpNow();
    } else {
      deps.replaceCatalog(nextCatalog);
      deps.content.served(result.commit);
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

/** The 400 for a deal the build's validation refuses: its first error, as the API words it. */
export function invalidDeal(diagnostics: readonly Diagnostic[]): ApiError {
  const first = diagnostics.find((d) => d.severity === 'error');
  return new ApiError(400, 'validation_error', first ? describe(first) : 'The deal is not valid.', {
    hint: 'Fix the named field; GET /openapi.json describes every Deal field.',
  });
}

// --- internal ---

/** A diagnostic as an API message: the field and the rule, without the file path. */
function describe(diagnostic: Diagnostic): string {
  return diagnostic.field ? `${diagnostic.field}: ${diagnostic.message}` : diagnostic.message;
}
