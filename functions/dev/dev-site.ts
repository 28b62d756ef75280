/**
 * The site as `npm run dev` serves it: the same handler as `npm start`, plus the preview loop's
 * two paths (`/_dev/events`, the event stream; `/_dev/client.js`, the page script) and that
 * script added to every HTML page. Pages go out uncompressed and unstored in dev, so the
 * script is always in what the browser shows.
 */
import type { SiteHandler } from '../http/app.ts';
import type { ReloadChannel } from './reload-channel.ts';

export const DEV_EVENTS_PATH = '/_dev/events';
export const DEV_CLIENT_PATH = '/_dev/client.js';

/**
 * @param client the page script's source (functions/dev/reload-client.js)
 * @example const devSite = withPreview(site, new ReloadChannel(), await readFile(clientUrl))
 */
export function withPreview(site: SiteHandler, channel: ReloadChannel, client: Uint8Array): SiteHandler {
  return async (request, address) => {
    const { pathname } = new URL(request.url);
    if (pathname === DEV_EVENTS_PATH) return channel.connect();
    // A file, not inline: the Content-Security-Policy allows scripts from the site only.
    if (pathname === DEV_CLIENT_PATH) return new Response(client.slice(), { headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' } });
    if (request.method !== 'GET') return site(request, address);
    const response = await site(asked(request), address);
    if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
    const headers = new Headers(response.headers);
    // The body changes, so its validators and length go; a stored copy would lack the script.
    for (const name of ['etag', 'content-length', 'last-modified']) headers.delete(name);
    headers.set('Cache-Control', 'no-store');
    return new Response(withClientScript(await response.text()), { status: response.status, statusText: response.statusText, headers });
  };
}

// --- internal ---

const SCRIPT_TAG = `<script type="module" src="${DEV_CLIENT_PATH}"></script>`;

/** The request without what would make the answer compressed or bodiless (a 304). */
function asked(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of ['accept-encoding', 'if-none-match', 'if-modified-since']) headers.delete(name);
  return new Request(request.url, { method: request.method, headers });
}

function withClientScript(html: string): string {
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + SCRIPT_TAG : html.slice(0, end) + SCRIPT_TAG + html.slice(end);
}
