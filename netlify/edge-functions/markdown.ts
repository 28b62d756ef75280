/**
 * `Accept: text/markdown` on Netlify (SPEC: a public page's compact Markdown representation):
 * the built site has each page's twin as `index.md` beside its `index.html`; this edge function
 * serves the twin to a request that prefers Markdown, the page otherwise, both with
 * `Vary: Accept`. The rule is the Node server's own (functions/http/negotiate.ts, bundled by
 * Netlify with the function). Deno-style Web API: no Node built-ins here.
 */
import { prefersMarkdown, twinPathOf } from '../../functions/http/negotiate.ts';

/** What this function uses of Netlify's edge context. */
export interface EdgeContext {
  /** The static file (or whatever is next in the chain) for the request as it came. */
  next: () => Promise<Response>;
}

const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

export default async function markdown(request: Request, context: EdgeContext): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const twin = twinPathOf(new URL(request.url).pathname);
  // A file (an asset, a document): not negotiated, not this function's business.
  if (twin === undefined) return undefined;
  if (prefersMarkdown(request.headers.get('accept'))) {
    // The twin is a static file of the same site (its path has an extension: this function is not run again for it).
    const found = await fetch(new URL(twin, request.url), { method: request.method, headers: passedOn(request.headers) });
    if (found.ok || found.status === 304) return varied(found, MARKDOWN_TYPE);
    await found.body?.cancel();
  }
  // HTML (or no twin for this page): the page as built, marked as negotiated so no cache hands it to the other kind of client.
  return varied(await context.next());
}

export const config = {
  path: '/*',
  excludedPath: ['/api/*', '/_astro/*', '/logos/*', '/.well-known/*'],
};

// --- internal ---

/** The request headers the twin's answer depends on (its coding, a conditional request); not Host or cookies. */
function passedOn(headers: Headers): Headers {
  const kept = new Headers();
  for (const name of ['accept-encoding', 'if-none-match', 'if-modified-since']) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  return kept;
}

/** The response with `Accept` in its Vary (and a content type), in a copy: fetched responses' headers are immutable. */
function varied(response: Response, type?: string): Response {
  const copy = new Response(response.body, response);
  const vary = copy.headers.get('vary');
  if (!vary?.split(',').some((name) => name.trim().toLowerCase() === 'accept')) copy.headers.set('Vary', vary ? `${vary}, Accept` : 'Accept');
  if (type && copy.status === 200) copy.headers.set('Content-Type', type);
  return copy;
}
