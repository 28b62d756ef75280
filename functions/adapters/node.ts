/**
 * Node adapter: one `node:http` server for the API and the site. `/api/*` goes straight to
 * the platform-neutral handlers (never through Astro's per-request pipeline); documents such
 * as llms.txt come from the catalog; everything else is the site (node-site.ts: built files,
 * live pages, Astro's on-demand pages, the 404 page). Every response gets the security headers
 * and an `X-Request-Id`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Deps, Handler } from '../deps.ts';
import { handleDocument, isDocument } from '../documents.ts';
import { clientAddressFrom, forwardedHttps, setRequestContext, type RequestContext } from '../http/client-address.ts';
import { isLoopbackAddress } from '../http/loopback.ts';
import { policyFor, rateLimitHeaders } from '../http/rate-limits.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { Metrics, routeGroup } from '../metrics.ts';
import { allowFor, apiRouteLabel, handleApi, resolvePath } from '../router.ts';
import { errorAnswer, rawBody, replayOf } from '../http/answer.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { ResponseCache } from './response-cache.ts';
import { LivePageCache } from './live-page-cache.ts';
import { serveSite, type AstroHandler } from './node-site.ts';

// Computed once: every response carries them (SECURITY.md).
const PLAIN_HEADERS = securityHeaders(false);
const SECURE_HEADERS = securityHeaders(true);

/**
 * Create (not start) the server.
 * @example createNodeServer(deps, { clientDir: 'dist/client' }).listen(4321)
 */
export function createNodeServer(deps: Deps, site: { clientDir: string; astro?: AstroHandler | undefined }): Server {
  const responses = new ResponseCache(deps.config.answerCacheEntries, deps.config.answerCacheBytes);
  const livePages = new LivePageCache();
  const metrics = new Metrics();
  return createServer((req, res) => {
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const context = contextOf(req, deps);
    const base = { ...(servedOverHttps(req, deps) ? SECURE_HEADERS : PLAIN_HEADERS), 'X-Request-Id': context.requestId ?? '' };
    res.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      metrics.observe(routeGroup(path, apiRouteLabel(path)), req.method ?? 'GET', res.statusCode, seconds);
      // Reads are counted, not logged (they would drown the log); writes and failures are logged.
      if (res.statusCode >= 500 || (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS')) {
        deps.log.info('request', { requestId: context.requestId, method: req.method, path, status: res.statusCode, ms: Math.round(seconds * 1000) });
      }
    });

    let work: Promise<void>;
    if (UNREPRESENTABLE_METHODS.has(req.method ?? '')) {
      // TRACE and TRACK cannot become a Web Request (fetch forbids them): refuse here.
      const isApi = path === '/api' || path.startsWith('/api/');
      const allow = (isApi ? allowFor(path) : undefined) ?? (isApi || isDocument(path) ? 'GET, HEAD, OPTIONS' : 'GET, HEAD');
      const answer = errorAnswer(methodNotAllowed(req.method ?? '', allow.split(', ')), new Date());
      res.writeHead(405, { ...base, ...answer.headers, 'API-Version': 'v1', Allow: allow, 'Content-Length': String(answer.body.byteLength), ...(req.complete ? {} : { Connection: 'close' }) });
      res.end(answer.body);
      work = Promise.resolve();
    } else if (path === '/api' || path.startsWith('/api/')) work = serveApi(req, res, deps, responses, handleApi, context, path, base);
    else if (isDocument(path)) work = serveApi(req, res, deps, responses, handleDocument, context, undefined, base);
    // The derived client, not the socket: behind a proxy on this host every socket is loopback.
    else if (deps.config.metricsPath && path === deps.config.metricsPath && isLoopbackAddress(context.address)) {
      work = Promise.all([metrics.render(), deps.searchGaps.metricsText()]).then(([requestLines, searchLines]) => {
        res.writeHead(200, { ...base, 'API-Version': 'v1', 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' }).end(requestLines + searchLines);
      });
    } else {
      for (const [name, value] of Object.entries(base)) res.setHeader(name, value);
      // Pages never read a body: one still arriving would block the next request on this connection.
      if (!req.complete) res.setHeader('Connection', 'close');
      work = serveSite(req, res, site, deps, livePages);
    }
    work.catch((error: unknown) => {
      deps.log.error('adapter_error', { requestId: context.requestId, path, error: error instanceof Error ? error.stack : String(error) });
      if (!res.headersSent) res.writeHead(500, { ...base, 'API-Version': 'v1', 'Content-Type': 'application/json; charset=utf-8' });
      res.end(res.headersSent ? undefined : JSON.stringify({ success: false, error: 'The server failed to answer this request.', code: 'internal_error', timestamp: new Date().toISOString() }));
    });
  });
}

// --- internal ---

function contextOf(req: IncomingMessage, deps: Deps): RequestContext {
  const given = req.headers['x-request-id'];
  const requestId = typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
  const forwarded = req.headers['x-forwarded-for'];
  return { address: clientAddressFrom(req.socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, deps.config.trustProxyHops), requestId };
}

/**
 * Run a Web-standard handler for a Node request. API requests are counted against their rate
 * limit first, so a response served from the micro-cache is limited like any other.
 */
async function serveApi(
  req: IncomingMessage,
  res: ServerResponse,
  deps: Deps,
  responses: ResponseCache,
  handler: Handler,
  context: RequestContext,
  apiPath: string | undefined,
  base: Record<string, string>,
): Promise<void> {
  let rateHeaders: Record<string, string> = {};
  if (apiPath !== undefined) {
    context.rate = await deps.rateLimits.consume(policyFor(resolvePath(apiPath)?.path ?? apiPath, req.method ?? 'GET'), context.address);
    rateHeaders = rateLimitHeaders(context.rate);
  }
  const key = context.rate?.allowed === false ? undefined : responses.keyFor(req);
  const state = deps.state();
  const hit = key === undefined ? undefined : responses.get(key, state);
  if (hit) {
    hit.replay?.((name) => headerValue(req, name));
    res.writeHead(hit.status, { ...base, ...hit.headers, ...rateHeaders });
    res.end(hit.body);
    return;
  }
  const request = toRequest(req, servedOverHttps(req, deps));
  setRequestContext(request, context);
  const response = await handler(request, deps);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const raw = rawBody(response);
  if (raw) headers['content-length'] = String(raw.byteLength);
  // Answered before the body was read (405, 401, 413…): the rest of it would block the next
  // request on this connection, so close the connection after this answer.
  if (!req.complete) headers.connection = 'close';
  if (key !== undefined) {
    const { ratelimit: _r, 'ratelimit-policy': _p, ...cacheable } = headers;
    responses.offer(key, state, response.status, cacheable, raw, replayOf(response));
  }
  const cookies = response.headers.getSetCookie();
  res.writeHead(response.status, { ...base, ...headers, ...(cookies.length > 0 ? { 'set-cookie': cookies } : {}) });
  if (raw) res.end(raw);
  else if (response.body) Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
  else res.end();
}

/** Methods the Fetch standard forbids in a Request (CONNECT never reaches a request handler). */
const UNREPRESENTABLE_METHODS = new Set(['TRACE', 'TRACK']);

/** The Host header when it is a plain name or address with a valid port; `localhost` otherwise. */
function usableHost(host: string | undefined): string {
  const match = /^[\w.-]+(?::(\d{1,5}))?$/.exec(host ?? '');
  return match && (match[1] === undefined || Number(match[1]) <= 65535) ? (host as string) : 'localhost';
}

/** Whether a trusted proxy says the client reached it over HTTPS (never trusted without TRUST_PROXY_HOPS). */
function servedOverHttps(req: IncomingMessage, deps: Deps): boolean {
  const proto = req.headers['x-forwarded-proto'];
  return forwardedHttps(Array.isArray(proto) ? proto.join(',') : proto, deps.config.trustProxyHops);
}

/** IncomingMessage → Web Request (https:// when a trusted proxy says so); the body streams only for methods that carry one. */
function toRequest(req: IncomingMessage, https: boolean): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const host = usableHost(req.headers.host);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
  return new Request(`${https ? 'https' : 'http'}://${host}${req.url ?? '/'}`, {
    method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/** A request header as the Fetch API would give it: repeated values joined, absent as null. */
function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}
