/**
 * The site half of the Node adapter: built files from Astro's output; pages whose catalog
 * content changed since the build, rendered live (once per catalog version) with their
 * Markdown twins; Astro's on-demand pages; then the 404 page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps.ts';
import { prefersMarkdown } from '../http/negotiate.ts';
import { twinFor } from '../../src/agents/markdown-twins.ts';
import type { LivePageCache } from './live-page-cache.ts';
import { changedPage, LIVE_PAGE_ROUTE } from '../site/live-pages.ts';
import { serveStatic } from './static-files.ts';

/** Astro's middleware-mode handler (`dist/server/entry.mjs`), when the build has one. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals?: object) => void;

/** Answer a request for anything but the API, the documents and the metrics. */
export async function serveSite(req: IncomingMessage, res: ServerResponse, site: { clientDir: string; astro?: AstroHandler | undefined }, deps: Deps, livePages: LivePageCache): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  res.setHeader('API-Version', 'v1');
  const notFound = () => {
    void serveStatic(req, res, site.clientDir, '/404.html', 404).then((served) => {
      if (!served) res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    });
  };
  const catalog = deps.state().catalog;
  const changed = req.method === 'GET' || req.method === 'HEAD' ? changedPage(path, deps.builtSite, catalog) : undefined;
  if (changed?.kind === 'gone') return notFound();
  if (changed && (changed.markdown || prefersMarkdown(req.headers.accept))) {
    return livePages.serveTwin(req, res, changed.path, catalog.version, () => twinFor(changed.path, catalog) ?? '');
  }
  if (changed) {
    if (await livePages.serve(req, res, changed.path, catalog.version)) return;
    livePages.capture(req, res, changed.path, catalog.version);
    req.url = LIVE_PAGE_ROUTE;
  } else if (await serveStatic(req, res, site.clientDir, path)) return;
  // On-demand pages (search results, pages changed since the build) render from the live catalog.
  if (site.astro) site.astro(req, res, notFound, { catalog, ssoName: deps.config.oidc?.name, livePage: changed?.page, searched: (query: string, matches: number) => deps.searchGaps.note(query, matches) });
  else notFound();
}

