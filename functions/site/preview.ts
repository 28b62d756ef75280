/**
 * Previews for admins (issue 16, item 2): a deal's or startup's page exactly as the site would
 * render it, through the renderer and component of the live pages (src/pages/live/page.astro,
 * at the page's own URL), for a saved record (a draft too) or for the unsaved values of the
 * deal form. Never a public answer: admin session only, `no-store`, `noindex`, and the shared
 * answer cache keeps only `public` answers.
 */
import { paths } from '../../src/agents/site-urls.ts';
import type { LivePage } from '../../src/live-page.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { requireAdmin, type SessionDeps } from '../auth/guard.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { asJsonObject, isFormBody, jsonDepthExceeds, MAX_JSON_DEPTH, readBody } from '../http/request-body.ts';
import { recordFromBody, replacing } from '../writes/admin-records.ts';
import { DEALS, STARTUPS } from '../writes/record-kinds.ts';
import { invalidRecord, withAllErrors } from '../writes/record-writes.ts';
import { LIVE_PAGE_ROUTE } from './live-pages.ts';
import { utcDay } from '../utc-day.ts';

export type PreviewDeps = SessionDeps & Pick<Deps, 'render' | 'config' | 'logos'>;

/** `GET /api/v1/admin/preview?deal=<slug>` (or `?startup=<slug>`): a saved record's page, draft or published. */
export async function getPreview(request: Request, deps: PreviewDeps): Promise<Response> {
  await requireAdmin(request, deps);
  const params = new URL(request.url).searchParams;
  const catalog = deps.state().catalog;
  const dealSlug = params.get('deal');
  const startupSlug = params.get('startup');
  if (dealSlug !== null) {
    const deal = DEALS.bySlug(catalog).get(dealSlug);
    if (!deal) throw notFound(`deal \`${dealSlug}\``);
    return previewPage(request, deps, { kind: 'deal', deal }, paths.deal(deal));
  }
  if (startupSlug !== null) {
    const startup = STARTUPS.bySlug(catalog).get(startupSlug);
    if (!startup) throw notFound(`startup \`${startupSlug}\``);
    return previewPage(request, deps, { kind: 'startup', startup }, paths.startup(startup));
  }
  throw new ApiError(400, 'validation_error', 'deal or startup is required: the slug of the record to preview.', { hint: 'GET /api/v1/admin/preview?deal=<slug>, or POST the unsaved deal.' });
}

/**
 * `POST /api/v1/admin/preview`: the page of a deal as the body describes it, unsaved, checked as
 * saving it would check it (a 400 names the field). The body is the deal as JSON, or a form
 * whose `deal` field holds that JSON (the admin form posts it into a new tab).
 */
export function postPreview(request: Request, deps: PreviewDeps): Promise<Response> {
  // `?errors=all`: a refusal lists every problem, as POST/PUT /deals do (the form checks first).
  return withAllErrors(request, () => previewUnsaved(request, deps));
}

// --- internal ---

async function previewUnsaved(request: Request, deps: PreviewDeps): Promise<Response> {
  await requireAdmin(request, deps);
  const form = isFormBody(request);
  const read = asJsonObject(await readBody(request));
  const body = form ? asJsonObject(parsedField(read.deal), 'deal') : read;
  const catalog = deps.state().catalog;
  const today = utcDay(deps.clock());
  const { record: deal, replaces } = recordFromBody(catalog, DEALS, body, today);
  // As saving places it: a slug another deal has is the same 400 conflict.
  const { upserts, removals } = replacing(catalog, DEALS, replaces, deal);
  const checked = new ContentSnapshot(catalog).withChanges(DEALS.files, upserts, removals, today);
  if (!checked.value) throw invalidRecord(DEALS, checked.diagnostics);
  // The deal as validation stores it (defaults filled, links normalised).
  const stored = checked.value.changed.find((d) => d.slug === deal.slug) ?? deal;
  // Not saved yet: nothing a member could save (its id is made up for this preview alone).
  return previewPage(request, deps, { kind: 'deal', deal: stored, unsaved: true }, paths.deal(stored));
}

/** What a preview answer carries besides its type: kept by nobody, indexed by nobody. */
const PREVIEW_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' };

/** Render `page` at its public `path` (its canonical link) from the live catalog. */
async function previewPage(request: Request, deps: PreviewDeps, page: LivePage, path: string): Promise<Response> {
  if (!deps.render) {
    throw new ApiError(503, 'service_unavailable', 'Previews need the built site, and this server has none.', {
      hint: 'Build it with `npm run build` (or start with `npm start`).',
      headers: { 'Retry-After': '60' },
    });
  }
  const catalog = deps.state().catalog;
  // A draft's logo is served nowhere public: its preview shows the monogram until it is published.
  const locals: App.Locals = { catalog, ssoName: deps.config.oidc?.name, livePage: page, hasLogo: deps.logos.shownIn(catalog) };
  const rendered = await deps.render(new Request(new URL(path, request.url)), locals, { route: LIVE_PAGE_ROUTE });
  if (!rendered || rendered.status !== 200) throw new Error(`preview of ${path} rendered ${rendered ? `status ${rendered.status}` : 'nothing'}`);
  return new Response(await rendered.arrayBuffer(), { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', ...PREVIEW_HEADERS } });
}

/** The `deal` field of a form: JSON text. */
function parsedField(value: unknown): unknown {
  if (typeof value !== 'string')
    throw new ApiError(400, 'validation_error', 'deal is required: the deal as JSON text.', { hint: 'Post a form with a `deal` field, or the deal itself as application/json.' });
  // The same nesting bound as a JSON body (http/request-body.ts).
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) throw new ApiError(400, 'bad_request', `deal is nested more than ${MAX_JSON_DEPTH} levels deep.`, { hint: 'Send the deal as a flat JSON object.' });
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new ApiError(400, 'bad_request', 'deal is not valid JSON.', { hint: 'Send the deal as a JSON object.' });
  }
}

function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `No ${what}, published or draft.`, { hint: 'Verify the slug: GET /api/v1/deals?slug=… or GET /api/v1/admin/drafts.' });
}
