/**
 * GET /api/v1/changes and /changes.atom: the change feed (functions/changes/change-feed.ts) at
 * the commit the catalog is served from, so no change is announced before the API and the
 * pages show it (a hand commit appears once the instance has read it: a pull, the webhook, a
 * SIGHUP). Answers are kept per commit and catalog version (a commit may leave the catalog as
 * it was, and the catalog names the site's address), and revalidate with their ETag. Without
 * a content history (a folder outside git, a function without CONTENT_GIT_URL) the answer is
 * 503, never a 500.
 */
import { changesAtom, ATOM_TYPE } from '../../src/agents/changes-atom.ts';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { Changes } from '../../src/schemas/answers.ts';
import { CHANGES_PAGE, CHANGES_PARAMS, parseQuery, type ChangesQuery } from '../../src/schemas/query.ts';
import type { ChangePage, ChangeQuery } from '../changes/change-feed.ts';
import type { Deps } from '../deps.ts';
import { jsonAnswer, serveVersioned, textAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { invalidParameter, PUBLIC_CACHE } from '../http/params.ts';
import { StoreUnavailableError } from '../store/content-store.ts';

export type ChangesDeps = Pick<Deps, 'state' | 'content' | 'changes' | 'prepared' | 'log'>;

/** How many of the latest changes the Atom feed carries. */
export const ATOM_CHANGES = 50;

/** GET /api/v1/changes: `{ success, head, changes, next?, complete }`. */
export async function getChanges(request: Request, deps: ChangesDeps): Promise<Response> {
  const head = servedCommit(deps);
  return serveVersioned(request, deps, 'changes', `${head} ${deps.state().catalog.version}`, async (params) => {
    const parsed = parseQuery(CHANGES_PARAMS, params);
    if (!parsed.ok) throw invalidParameter(parsed.problem);
    return jsonAnswer(200, await changesAt(deps, head, parsed.value), PUBLIC_CACHE);
  });
}

/** GET /changes.atom: the latest changes as an Atom 1.0 feed. */
export async function getChangesAtom(request: Request, deps: ChangesDeps): Promise<Response> {
  const head = servedCommit(deps);
  const { catalog } = deps.state();
  return serveVersioned(request, deps, 'changes.atom', `${head} ${catalog.version}`, async () => {
    const page = await pageAt(deps, head, { limit: ATOM_CHANGES });
    const xml = changesAtom(catalog.site, withUrls(catalog, page.changes), page.date ?? new Date(0).toISOString());
    return textAnswer(200, xml, { 'Content-Type': ATOM_TYPE, ...PUBLIC_CACHE });
  });
}

/**
 * The page of changes a query asks for, at the commit served (what the MCP tool answers too);
 * ApiError 400 for a `since` or `cursor` the feed does not know, 503 without a history.
 * @example await readChanges(deps, { since: { date: Date.parse('2026-11-20') }, limit: 20 })
 */
export function readChanges(deps: ChangesDeps, query: ChangesQuery): Promise<Changes> {
  return changesAt(deps, servedCommit(deps), query);
}

// --- internal ---

async function changesAt(deps: ChangesDeps, head: string, query: ChangesQuery): Promise<Changes> {
  const page = await pageAt(deps, head, { ...query, limit: Math.min(query.limit ?? CHANGES_PAGE.default, CHANGES_PAGE.max) });
  return { success: true, head, changes: withUrls(deps.state().catalog, page.changes), ...(page.next ? { next: page.next } : {}), complete: page.complete };
}

/** A page from the feed; a history that cannot be read is a 503 (logged), a `since` or `cursor` it lacks a 400. */
async function pageAt(deps: ChangesDeps, head: string, query: ChangeQuery): Promise<ChangePage> {
  let result: Awaited<ReturnType<Deps['changes']['page']>>;
  try {
    result = await deps.changes.page(head, query);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    deps.log.error('store_unavailable', { operation: 'changes', error: String(error.cause ?? error.message) });
    throw unavailable();
  }
  if (!result.ok) throw invalidParameter(result.problem);
  return result.page;
}

/** The commit the served catalog was read from; none (no git history here) is a 503. */
function servedCommit(deps: Pick<Deps, 'content'>): string {
  const commit = deps.content.status().indexedCommit;
  if (!commit) throw unavailable();
  return commit;
}

function unavailable(): ApiError {
  return new ApiError(503, 'service_unavailable', 'The content history cannot be read here right now.', {
    hint: 'The change feed is read from the git history of the content; try again in a minute. The catalog itself is at GET /api/v1/deals.',
    headers: { 'Retry-After': '60' },
  });
}

/** Each change with the address of its page (none for a removed record). */
function withUrls(catalog: Catalog, changes: ChangePage['changes']): Changes['changes'] {
  return changes.map((change) => (change.change === 'removed' ? change : { ...change, url: absolute(catalog.site.baseUrl, change.kind === 'deal' ? paths.deal(change) : paths.startup(change)) }));
}
