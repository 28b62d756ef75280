/**
 * Node adapter: one `node:http` server for the API and the site. `/api/*` goes straight to
 * the platform-neutral handlers (never through Astro's per-request pipeline); everything
 * else is a static file from Astro's build, then Astro's on-demand routes, then a 404 page.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Deps, Handler } from '../deps.ts';
import { handleDocument, isDocument } from '../documents.ts';
import { rawBody } from '../http/answer.ts';
import { setClientAddress } from '../http/client-address.ts';
import { handleApi } from '../router.ts';
import { ResponseCache } from './response-cache.ts';
import { serveStatic } from './static-files.ts';

/** Astro's middleware-mode handler (`dist/server/entry.mjs`), when the build has one. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals?: object) => void;

/**
 * Create (not start) the server.
 * @example createNodeServer(deps, { clientDir: 'dist/client' }).listen(4321)
 */
export function createNodeServer(deps: Deps, site: { clientDir: string; astro?: AstroHandler | undefined }): Server {
  const responses = new ResponseCache(deps.config.answerCacheEntries, deps.config.answerCacheBytes);
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const work =
      path === '/api' || path.startsWith('/api/')
        ? serveApi(req, res, deps, responses, handleApi)
        : isDocument(path)
          ? serveApi(req, res, deps, responses, handleDocument)
          : serveSite(req, res, site, deps);
    work.catch((error: unknown) => {
      deps.log.error('adapter_error', { path, error: error instanceof Error ? error.stack : String(error) });
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end();
    });
  });
}

// --- internal ---

/** Run a Web-standard handler for a Node request, with the response micro-cache in front. */
async function serveApi(req: IncomingMessage, res: ServerResponse, deps: Deps, responses: ResponseCache, handler: Handler): Promise<void> {
  const key = responses.keyFor(req);
  const state = deps.state();
  const hit = key === undefined ? undefined : responses.get(key, state);
  if (hit) {
    res.writeHead(hit.status, hit.headers);
    res.end(hit.body);
    return;
  }
  const request = toRequest(req);
  setClientAddress(request, req.socket.remoteAddress ?? 'unknown');
  const response = await handler(request, deps);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const raw = rawBody(response);
  if (raw) headers['content-length'] = String(raw.byteLength);
  if (key !== undefined) responses.offer(key, state, response.status, headers, raw);
  const cookies = response.headers.getSetCookie();
  res.writeHead(response.status, cookies.length > 0 ? { ...headers, 'set-cookie': cookies } : headers);
  if (raw) res.end(raw);
  else if (response.body) Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
  else res.end();
}

async function serveSite(req: IncomingMessage, res: ServerResponse, site: { clientDir: string; astro?: AstroHandler | undefined }, deps: Deps): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  res.setHeader('API-Version', 'v1');
  if (await serveStatic(req, res, site.clientDir, path)) return;
  const notFound = () => {
    void serveStatic(req, res, site.clientDir, '/404.html', 404).then((served) => {
      if (!served) res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    });
  };
  // On-demand pages (search results) render from the live catalog.
  if (site.astro) site.astro(req, res, notFound, { catalog: deps.state().catalog });
  else notFound();
}

/** IncomingMessage → Web Request; the body streams only for methods that carry one. */
function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const host = /^[\w.-]+(:\d+)?$/.test(req.headers.host ?? '') ? req.headers.host : 'localhost';
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
  return new Request(`http://${host}${req.url ?? '/'}`, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}
