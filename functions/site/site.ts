/**
 * The site as a Web handler, `Request → Response`: built files from Astro's output; pages
 * whose catalog content changed since the build, rendered live (once per catalog version)
 * with their Markdown twins; Astro's on-demand pages (search results); then the 404 page.
 * Platform-neutral: an adapter passes every request that is not for the API, the documents
 * or the metrics, and adds the headers every answer carries (security headers, request id).
 */
import { webRequest } from '../http/lazy-request.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Deps } from '../deps.ts';
import type { FormSubmission } from '../../src/schemas/submission.ts';
import { prefersMarkdown } from '../http/negotiate.ts';
import { twinFor } from '../../src/agents/markdown-twins.ts';
import type { RenderOptions } from './astro-entry.ts';
import { LivePageCache } from './live-page-cache.ts';
import { changedPage, LIVE_PAGE_ROUTE } from './live-pages.ts';
import { changedLogo, isPublic } from './live-logos.ts';
import { serveStatic } from './static-files.ts';

/** Astro's on-demand renderer (`render` of `dist/server/entry.mjs`, functions/site/astro-entry.ts). */
export type AstroRender = (request: Request, locals: App.Locals, options?: RenderOptions) => Promise<Response | undefined>;

export type SiteDeps = Pick<Deps, 'state' | 'builtSite' | 'config' | 'searchGaps' | 'prepared' | 'logos'>;

/** What the member pages read of a request's session (`App.Locals['member']`, each given the request; functions/members/). */
export type MemberReads = { [K in keyof MemberLocals]: (request: Request) => ReturnType<MemberLocals[K]> };
type MemberLocals = NonNullable<App.Locals['member']>;

/** The submission of the site's form, for a client address (functions/writes/submit-deal.ts `submitForm`). */
export type SubmitForm = (request: Request, address: string) => Promise<FormSubmission>;

/**
 * The site handler over a built site: `clientDir` is Astro's `dist/client`, `render` its
 * on-demand renderer (see `loadAstroRender`); without it, on-demand pages are 404s. `submit`
 * takes the posts of the submission form (/submit/), which the page hands over with the
 * client's address; without it that form answers 503. `member` reads what the member
 * pages (/account/…, the only pages that read the session) show.
 * @example const site = createSite(deps, { clientDir: join(distDir, 'client'), render: await loadAstroRender(distDir), submit: (r, a) => submitForm(r, deps, a) });
 */
export function createSite(
  deps: SiteDeps,
  options: { clientDir: string; render?: AstroRender | undefined; submit?: SubmitForm | undefined; member?: MemberReads | undefined },
): (request: Request, client?: { address: string }) => Promise<Response> {
  const { clientDir, render, submit, member } = options;
  const livePages = new LivePageCache(deps.prepared);
  const errorPage = (pathname: string) => serveStatic(new Request('http://site/'), clientDir, pathname);
  const notFound = async (request: Request): Promise<Response> => (await serveStatic(request, clientDir, '/404.html', 404)) ?? plainNotFound();

  return async (request, client) => {
    const path = new URL(request.url).pathname;
    const catalog = deps.state().catalog;
    const locals = (livePage?: App.Locals['livePage']): App.Locals => ({
      catalog,
      ssoName: deps.config.oidc?.name,
      livePage,
      searched: (query, matches) => deps.searchGaps.note(query, matches),
      hasLogo: deps.logos.shownIn(catalog),
    });
    // Other methods reach only on-demand pages (where Astro checks the origin of form posts), as before;
    // a page that takes a post (/submit/) hands it back with the client's address.
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const posted: App.Locals = { ...locals(), submitDeal: submit && client ? (page) => submit(page, client.address) : undefined, member: member && boundTo(member, request) };
      return (await render?.(webRequest(request), posted, { errorPage })) ?? plainNotFound();
    }

    const logo = await changedLogo(request, path, deps.logos, (kind, slug) => isPublic(catalog, kind, slug));
    if (logo) return logo;
    const changed = changedPage(path, deps.builtSite, catalog, deps.logos);
    if (changed?.kind === 'gone') return notFound(request);
    if (changed && (changed.markdown || prefersMarkdown(request.headers.get('accept')))) {
      return livePages.serveTwin(request, changed.path, catalog.version, () => twinFor(changed.path, catalog) ?? '');
    }
    if (changed) {
      // Pages show logos: one changed since the build makes another page of the same catalog.
      const version = `${catalog.version}${deps.logos.stamp}`;
      // At the page's own URL (its canonical link), whatever form of it was asked for (`index.html`).
      const renderPage = async () => render?.(new Request(new URL(changed.path, request.url), { headers: request.headers }), locals(changed.page), { route: LIVE_PAGE_ROUTE, errorPage });
      return (await livePages.serve(request, changed.path, version, renderPage)) ?? notFound(request);
    }
    // On-demand pages (search results, the member's pages, the submission form) render from the live catalog; only they may read the session.
    const onDemand: App.Locals = { ...locals(), member: member && boundTo(member, request) };
    return (await serveStatic(request, clientDir, path)) ?? (await render?.(webRequest(request), onDemand, { errorPage })) ?? notFound(request);
  };
}

/**
 * Astro's on-demand renderer from a build (`<distDir>/server/entry.mjs`), when the build has one.
 * @example const render = await loadAstroRender('dist');
 */
export async function loadAstroRender(distDir: string): Promise<AstroRender | undefined> {
  const entry = join(distDir, 'server', 'entry.mjs');
  if (!existsSync(entry)) return undefined;
  const module = (await import(pathToFileURL(entry).href)) as { render?: AstroRender };
  return module.render;
}

// --- internal ---

function plainNotFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The member reads for one request. */
function boundTo(reads: MemberReads, request: Request): MemberLocals {
  return Object.fromEntries(Object.entries(reads).map(([name, read]) => [name, () => read(request)])) as MemberLocals;
}
