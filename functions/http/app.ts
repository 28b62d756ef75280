/**
 * The front door: one Web-standard `fetch(request, client)` for the whole service, used by
 * every platform adapter. A request gets its context (who sent it, its id, what its path names
 * in the route table, http/routes.ts), passes the steps below in the order `createApp` lists
 * them, then is answered by what its path names: an API handler, a document, the metrics, or
 * the site. A step may act before the answer is made (and answer early: the rate limit, the
 * answer cache) and after it (add headers), so every step adds its headers to error answers too:
 * `compose` turns anything thrown into the SPEC error answer where it was thrown, and the answer
 * goes back out through the steps that were entered.
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { documentAnswer } from '../docs/document-cache.ts';
import { Metrics, routeGroup } from '../ops/metrics.ts';
import { MAX_CACHED_QUERY_LENGTH } from '../reads/prepared-cache.ts';
import { BILLING_PAGE } from '../billing/plan-guard.ts';
import { stripePageOrigins } from '../billing/stripe-gateway.ts';
import { answerResponse, errorAnswer, rawBody, replayOf, storedResponse, type Replay } from './answer.ts';
import { appendHeader, checkedFields, hasHeader, headerFields, setCheckedFields, setHeader, type Payload } from './bytes-response.ts';
import { chooseCoding } from './compress.ts';
import { ApiError, asApiError, methodNotAllowed } from './errors.ts';
import { headerOf, urlOf } from './lazy-request.ts';
import { lifecycleHeaders } from './lifecycle.ts';
import { isLoopbackAddress } from './loopback.ts';
import { rateLimitHeaders, type PolicyName, type RateDecision } from './rate-limits.ts';
import {
  allowedMethods,
  API_VERSION,
  crossOriginMethods,
  DOCUMENT_METHODS,
  documentRoute,
  publicPath,
  resolveApi,
  VERSIONED_PREFIX,
  type ApiTarget,
  type DocumentRoute,
  type HistoryDocumentRoute,
  type Method,
} from './routes.ts';
import { securityHeaders } from './security-headers.ts';

/** The site: built files, live pages and Astro's on-demand pages (functions/site/site.ts); `client.address` for the limits of the submission form. */
export type SiteHandler = (request: Request, client: { address: string }) => Promise<Response>;

export interface App {
  fetch: (request: Request, client: Client) => Promise<Response>;
}

/**
 * @example const app = createApp(deps, { site }); const response = await app.fetch(new Request('http://x/api/v1/deals'), { address: '127.0.0.1' })
 */
export function createApp(deps: Deps, options: { site?: SiteHandler | undefined } = {}): App {
  const metrics = new Metrics();
  // With ANSWER_CACHE=off the answer-cache step would only look for what is never kept.
  const steps = [observe(deps, metrics), identify(deps), cors, versioning(deps), rateLimit(deps), ...(deps.prepared.keepsAnswers ? [answerCache(deps)] : [])];
  const handle = compose(steps, (request, context) => answer(request, context), errorWriter(deps));
  return { fetch: (request, client) => handle(request, contextFor(request, client, deps.config.metricsPath)) };

  async function answer(request: Request, context: RequestContext): Promise<Response> {
    const { target, method } = context;
    // TRACE and TRACK reach here as GET (a Web Request cannot carry them): refused everywhere.
    if (method !== request.method) throw methodNotAllowed(method, allowOf(context));
    switch (target.kind) {
      case 'api': {
        const { route } = target.api;
        if (!route) {
          throw new ApiError(404, 'not_found', `There is no API endpoint at ${context.path}.`, {
            hint: 'See /openapi.json for the endpoints; deals are at /api/v1/deals, startups at /api/v1/startups.',
          });
        }
        if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allowOf(context).join(', ') } });
        const operation = route.methods[(method === 'HEAD' ? 'GET' : method) as Method];
        if (!operation) throw methodNotAllowed(method, allowOf(context));
        return operation.handler(request, deps, context);
      }
      case 'document':
        if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allowOf(context).join(', ') } });
        if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, allowOf(context));
        if ('serve' in target.document) return target.document.serve(request, deps, context);
        return answerResponse(request, documentAnswer(target.document, deps.state().catalog, deps));
      case 'metrics': {
        const text = (await metrics.render()) + (await deps.searchGaps.metricsText());
        return new Response(text, { headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' } });
      }
      case 'site':
        if (!options.site) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
        return mutable(await options.site(request, { address: context.address }));
    }
  }
}

/** A response whose headers the steps can change (a fetched or redirect response has immutable ones). */
function mutable(response: Response): Response {
  try {
    response.headers.set('API-Version', 'v1');
    return response;
  } catch {
    return new Response(response.body, response);
  }
}

// --- the request context, and the chain of steps ---

/** What a platform adapter tells the app about a request. */
export interface Client {
  /** The client's address (DESIGN: the socket peer; `X-Forwarded-For` only behind trusted proxies). */
  address: string;
  /** The platform's own request id, if it has one; otherwise a valid `X-Request-Id` sent, or a new one. */
  requestId?: string | undefined;
  /** The method asked for when a Web Request cannot carry it (TRACE, TRACK): the adapter sends GET. */
  method?: string | undefined;
  /**
   * The path as sent, when the platform has it: the URL of a Request has its dot segments
   * resolved (`/api/%2e%2e/x` is `/x`), but what the client asked for decides where it goes.
   */
  path?: string | undefined;
}

/** What the path names: an API route (or an unknown `/api` path), a document, the metrics, or the site. */
type Target = { kind: 'api'; api: ApiTarget } | { kind: 'document'; document: DocumentRoute | HistoryDocumentRoute } | { kind: 'metrics' } | { kind: 'site' };

export interface RequestContext {
  readonly address: string;
  readonly requestId: string;
  readonly method: string;
  readonly url: URL;
  /** The path as the client sent it (see `Client.path`): what routing, logs and metrics use. */
  readonly path: string;
  /** Whether the client reached the site over HTTPS (the adapter says so with the URL's scheme). */
  readonly https: boolean;
  readonly target: Target;
  /** The rate-limit decision, once the limit step took it. */
  rate?: RateDecision;
  /** When the request arrived (`performance.now()`), for its duration in the metrics. */
  readonly started: number;
  /** Where the answer cache will keep this request's answer, when it may and did not have it. */
  cacheSlot?: { key: string; version: string };
}

/**
 * @param metricsPath where the metrics are served to loopback clients (none when undefined)
 */
function contextFor(request: Request, client: Client, metricsPath: string | undefined): RequestContext {
  const url = urlOf(request);
  const given = headerOf(request, 'x-request-id');
  return {
    address: client.address,
    requestId: client.requestId ?? (given !== null && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID()),
    method: client.method ?? request.method,
    url,
    path: client.path ?? url.pathname,
    https: url.protocol === 'https:',
    target: targetOf(client.path ?? url.pathname, client.address, metricsPath),
    started: performance.now(),
  };
}

function targetOf(pathname: string, address: string, metricsPath: string | undefined): Target {
  if (pathname === '/api' || pathname.startsWith('/api/')) return { kind: 'api', api: resolveApi(pathname) };
  const document = documentRoute(pathname);
  if (document) return { kind: 'document', document };
  // The derived client, not the socket: behind a proxy on this host every socket is loopback.
  if (metricsPath && pathname === metricsPath && isLoopbackAddress(address)) return { kind: 'metrics' };
  return { kind: 'site' };
}

/**
 * A step every request passes. `before` runs on the way in, outermost step first, and may answer
 * early; `after` runs on the way out, innermost first, on every answer of a request whose
 * `before` it passed (early answers and error answers included), and adds to it.
 */
interface Step {
  before?: (request: Request, context: RequestContext) => Response | undefined | Promise<Response | undefined>;
  after?: (request: Request, context: RequestContext, response: Response) => void;
}
type Endpoint = (request: Request, context: RequestContext) => Promise<Response>;
type Failed = (thrown: unknown, request: Request, context: RequestContext) => Promise<Response>;

/**
 * Run `steps` around `endpoint`. What a `before`, the endpoint or an `after` throws becomes the
 * error answer (`failed`) right there, and goes out through the steps above it. Written as a loop
 * rather than nested `next()` calls: a cached answer then costs two awaits instead of about
 * twenty promises (docs/performance.md, "The front door's steps").
 */
function compose(steps: readonly Step[], endpoint: Endpoint, failed: Failed): Endpoint {
  return async (request, context) => {
    let response: Response | undefined;
    let entered = 0;
    try {
      for (; entered < steps.length && !response; entered++) {
        const early = steps[entered]?.before?.(request, context);
        response = early instanceof Promise ? await early : early;
      }
      response ??= await endpoint(request, context);
    } catch (thrown) {
      response = await failed(thrown, request, context);
    }
    for (let index = entered - 1; index >= 0; index--) {
      try {
        steps[index]?.after?.(request, context, response);
      } catch (thrown) {
        response = await failed(thrown, request, context);
      }
    }
    return response;
  };
}

/** The one error writer: the SPEC error object; anything unexpected is logged with its stack and answered as a bare 500. */
function errorWriter(deps: Pick<Deps, 'log' | 'clock'>): Failed {
  return (thrown, request, context) => {
    const { error, unexpected } = asApiError(thrown);
    if (unexpected) deps.log.error('unhandled_error', { requestId: context.requestId, method: context.method, path: context.path, error: thrown instanceof Error ? thrown.stack : String(thrown) });
    return answerResponse(request, errorAnswer(error, deps.clock()));
  };
}

// --- the steps, outermost first ---

/** Count every request in the metrics; log writes and failures (reads are counted, not logged: they would drown the log). */
function observe(deps: Pick<Deps, 'log'>, metrics: Metrics): Step {
  return {
    after(_request, context, response) {
      const seconds = (performance.now() - context.started) / 1000;
      const { target, method, path } = context;
      const route = target.kind === 'api' && target.api.route ? publicPath(target.api.route) : undefined;
      metrics.observe(routeGroup(path, route), method, response.status, seconds);
      if (response.status >= 500 || (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS')) {
        deps.log.info('request', { requestId: context.requestId, method, path, status: response.status, ms: Math.round(seconds * 1000) });
      }
    },
  };
}

/**
 * The request id and the security headers, on every response (computed once). The billing page
 * alone may send its forms on to Stripe's pages (its buttons' posts are answered with a redirect there).
 */
function identify(deps: Pick<Deps, 'config'>): Step {
  const headers = (formTargets: readonly string[]) => ({ plain: checkedFields(securityHeaders(false, formTargets)), secure: checkedFields(securityHeaders(true, formTargets)) });
  const everywhere = headers([]);
  const billingPage = deps.config.billing ? headers(stripePageOrigins(deps.config.billing)) : everywhere;
  return {
    after(_request, context, response) {
      const set = context.target.kind === 'site' && context.path.replace(/\/?$/, '/') === BILLING_PAGE ? billingPage : everywhere;
      setCheckedFields(response, context.https ? set.secure : set.plain);
      setHeader(response, 'X-Request-Id', context.requestId);
    },
  };
}

/** API requests count against their route's limit (DESIGN "general rate limit") before anything else is done for them. */
function rateLimit(deps: Pick<Deps, 'rateLimits' | 'clock'>): Step {
  return {
    before(request, context) {
      if (context.target.kind !== 'api') return undefined;
      const decision = deps.rateLimits.consume(policyOf(context), context.address);
      return decision instanceof Promise ? decision.then((taken) => refusal(request, context, taken)) : refusal(request, context, decision);
    },
    after(_request, context, response) {
      // A handler with a limit of its own (submissions) reports that one.
      if (context.rate && !hasHeader(response, 'RateLimit-Policy')) setCheckedFields(response, rateLimitFields(context.rate));
    },
  };

  /** The 429 answer when the request is over its limit; the decision goes into the context either way. */
  function refusal(request: Request, context: RequestContext, decision: RateDecision): Promise<Response> | undefined {
    context.rate = decision;
    if (decision.allowed) return undefined;
    const refused = new ApiError(429, 'rate_limited', 'Too many requests from this address.', {
      hint: `Wait ${decision.resetSeconds} seconds; see the RateLimit headers.`,
      headers: { 'Retry-After': String(decision.resetSeconds) },
    });
    return answerResponse(request, errorAnswer(refused, deps.clock()));
  }
}

/** The RateLimit fields of a decision, checked; kept for the fixed decisions of `RATE_LIMITS=off` (frozen, one per policy). */
const fixedRateFields = new WeakMap<RateDecision, [string, string][]>();
function rateLimitFields(decision: RateDecision): [string, string][] {
  let fields = fixedRateFields.get(decision);
  if (!fields) {
    fields = checkedFields(rateLimitHeaders(decision));
    if (Object.isFrozen(decision)) fixedRateFields.set(decision, fields);
  }
  return fields;
}

const EXPOSED_HEADERS = 'API-Version, ETag, Link, Retry-After, RateLimit, RateLimit-Policy, Server-Timing, Deprecation, Sunset, X-Request-Id';
const CORS_FIELDS = checkedFields({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
const ALLOWED_HEADERS = 'Content-Type, If-None-Match, If-Match, Accept, Accept-Encoding, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Search-Intent, A2A-Version, A2A-Extensions';

/**
 * CORS (DESIGN "CORS"): public routes and documents answer any origin; same-origin routes and
 * admin operations never grant another origin anything, not even a preflight.
 */
const cors: Step = {
  after(request, context, response) {
    const { target } = context;
    if (target.kind !== 'api' && target.kind !== 'document') return;
    const route = target.kind === 'api' ? target.api.route : undefined;
    const granted = target.kind === 'document' ? DOCUMENT_METHODS : route ? crossOriginMethods(route) : ['OPTIONS'];
    if (route && granted.length === 0) return;
    const asked = context.method === 'OPTIONS' ? request.headers.get('access-control-request-method')?.toUpperCase() : undefined;
    if (asked && !granted.includes(asked)) return;
    setCheckedFields(response, CORS_FIELDS);
    if (context.method === 'OPTIONS' && response.status === 204) {
      setHeader(response, 'Access-Control-Allow-Methods', granted.join(', '));
      setHeader(response, 'Access-Control-Allow-Headers', ALLOWED_HEADERS);
      setHeader(response, 'Access-Control-Max-Age', '86400');
    }
  },
};

const VERSION_FIELDS = checkedFields({ 'API-Version': API_VERSION });

/** `API-Version` on every response (SPEC "Versioning"); the successor link on `/api` aliases; the lifecycle signals of a deprecated route. */
function versioning(deps: Pick<Deps, 'lifecycle'>): Step {
  return {
    after(_request, context, response) {
      setCheckedFields(response, VERSION_FIELDS);
      if (context.target.kind !== 'api') return;
      const { route, alias, path } = context.target.api;
      const { url } = context;
      if (alias && !route?.unversioned) {
        // The query is kept for ordinary requests; a huge one would make the header too large for proxies.
        appendHeader(response, 'Link', `<${VERSIONED_PREFIX}${context.path.slice(4)}${url.search.length <= 1024 ? url.search : ''}>; rel="successor-version"`);
      }
      const lifecycle = route ? deps.lifecycle.get(path) : undefined;
      if (lifecycle) {
        const signals = lifecycleHeaders(lifecycle);
        setHeader(response, 'Deprecation', signals.deprecation);
        setHeader(response, 'Sunset', signals.sunset);
        for (const link of signals.links) appendHeader(response, 'Link', link);
      }
    },
  };
}

interface Stored {
  status: number;
  headers: Record<string, string>;
  body: Payload;
  /** What the handler would still have done for this request (answer.ts `Replay`). */
  replay: Replay | undefined;
}

/**
 * Finished public answers of API routes and documents, by content coding and URL, for one
 * catalog version: a repeated request skips routing and the handler. Conditional requests
 * take the full path (which answers 304); the handler's own caches (answer.ts `serveAnswer`) still
 * hold the answers behind them. Answers that follow the content's history rather than the
 * catalog (routes.ts `follows`) are left to their handlers, which keep them per commit.
 */
function answerCache(deps: Pick<Deps, 'state' | 'prepared'>): Step {
  return {
    before(request, context) {
      const { target, method, url, path } = context;
      const history = target.kind === 'api' ? target.api.route?.follows === 'history' : target.kind === 'document' && 'serve' in target.document;
      const cacheable =
        (target.kind === 'api' || target.kind === 'document') &&
        !history &&
        (method === 'GET' || method === 'HEAD') &&
        headerOf(request, 'if-none-match') === null &&
        url.search.length - 1 <= MAX_CACHED_QUERY_LENGTH;
      if (!cacheable) return undefined;
      const key = `${chooseCoding(headerOf(request, 'accept-encoding')) ?? 'identity'} ${path}${url.search}`;
      const { version } = deps.state().catalog;
      const hit = deps.prepared.get<Stored>('response', key, version);
      if (!hit) {
        context.cacheSlot = { key, version };
        return undefined;
      }
      hit.replay?.((name) => headerOf(request, name.toLowerCase()));
      return storedResponse(hit.status, hit.headers, hit.body);
    },
    after(_request, context, response) {
      const slot = context.cacheSlot;
      const body = rawBody(response);
      if (!slot || response.status !== 200 || !body) return;
      const { fields: headers, cookies } = headerFields(response);
      if (cookies.length === 0 && headers['cache-control']?.startsWith('public')) {
        deps.prepared.set('response', slot.key, slot.version, { status: 200, headers: { ...headers, 'server-timing': 'cache;desc="hit"' }, body, replay: replayOf(response) }, body.byteLength);
      }
    },
  };
}

// --- internal ---

/** The limit policy of a request: its route's, except that anything but a read on a read route counts as a write. */
function policyOf(context: RequestContext): PolicyName {
  const policy = (context.target.kind === 'api' ? context.target.api.route?.rate : undefined) ?? 'read';
  return policy === 'read' && !['GET', 'HEAD', 'OPTIONS'].includes(context.method) ? 'write' : policy;
}

/** The `Allow` value of what a request's path names. */
function allowOf(context: RequestContext): string[] {
  const { target } = context;
  if (target.kind === 'api') return target.api.route ? allowedMethods(target.api.route) : ['GET', 'HEAD', 'OPTIONS'];
  if (target.kind === 'document') return [...DOCUMENT_METHODS];
  return ['GET', 'HEAD'];
}
