/**
 * Astro's server entrypoint for this site (bundled by `astro build` into
 * `dist/server/entry.mjs`; wired in astro.config.mjs in place of @astrojs/node's own): the
 * on-demand pages (search results, pages changed since the build) as a Web handler,
 * `Request → Response`, through Astro's App API. Nothing here knows Node's request objects.
 */
import { createApp } from 'astro/app/entrypoint';
import { setGetEnv } from 'astro/env/setup';

setGetEnv((key) => process.env[key]);

/** One app for the process; whole bodies (a live page's bytes are kept, a search page is small). */
const app = createApp({ streaming: false });

export interface RenderOptions {
  /**
   * Render this route's page (its path, such as `/live/page/`) for the request, instead of
   * the page its URL names: the URL stays the request's own, so `Astro.url` (the canonical
   * link) is the page's public path.
   */
  route?: string | undefined;
  /**
   * A built error page (`/404.html`), for when Astro answers with its error page; without
   * it that answer has no body. Astro never fetches it over the network from here.
   */
  errorPage?: ((pathname: string) => Promise<Response | undefined>) | undefined;
}

/**
 * Render the on-demand page for `request`; `undefined` when no on-demand page matches (a
 * prerendered page is a built file, served elsewhere).
 * @example await render(new Request('https://deals.example/deals/search/?q=aws'), { catalog })
 */
export async function render(request: Request, locals: App.Locals, options: RenderOptions = {}): Promise<Response | undefined> {
  const routeData = app.match(options.route === undefined ? request : new Request(new URL(options.route, request.url)));
  if (!routeData) return undefined;
  const errorPage = options.errorPage;
  return app.render(request, {
    routeData,
    locals,
    addCookieHeader: true,
    prerenderedErrorPageFetch: async (url) => (errorPage && (await errorPage(new URL(url).pathname))) || new Response(null, { status: 404 }),
  });
}
