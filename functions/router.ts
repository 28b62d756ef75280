/**
 * The `/api` front door: maps `/api/v1/*` and its unversioned `/api/*` aliases to handlers,
 * answers OPTIONS, HEAD and wrong methods, turns every failure into the SPEC error object, and
 * adds the headers every API response carries (SPEC "Versioning", DESIGN "CORS").
 */
import { deleteDeals, postDeals, putDeals } from './api/admin-deals.ts';
import { getSearchGaps } from './api/search-gaps.ts';
import { getDeals } from './api/deals.ts';
import { getStartups } from './api/startups.ts';
import { postSubmitDeal } from './api/submit-deal.ts';
import { getSession, postLogin, postLogout } from './api/auth.ts';
import { getOidcCallback, getOidcStart } from './api/oidc-login.ts';
import { postContentHook } from './api/content-hook.ts';
import { approveSubmission, getSubmissions, rejectSubmission } from './api/review.ts';
import { lifecycleHeaders } from './lifecycle.ts';
import { clientAddress, requestContext } from './http/client-address.ts';
import { policyFor, rateLimitHeaders } from './http/rate-limits.ts';
import { getHealth } from './api/health.ts';
import type { Deps, Handler } from './deps.ts';
import { answerResponse, errorAnswer } from './http/answer.ts';
import { ApiError, asApiError, methodNotAllowed } from './http/errors.ts';

export const API_VERSION = 'v1';
const VERSIONED_PREFIX = '/api/v1';

interface Route {
  methods: Partial<Record<string, Handler>>;
  /** Public routes answer any origin; admin routes are same-origin only. */
  cors: 'public' | 'same-origin';
  /** Not part of the versioned API (the MCP endpoint): no successor link under `/api`. */
  unversioned?: boolean;
  /** Methods for signed-in admins only: never granted to another origin (DESIGN "CORS"). */
  adminMethods?: readonly string[];
}

/** The MCP SDK is loaded on the first MCP request, not at start-up (it costs ~70 ms to import). */
const handleMcp: Handler = async (request, deps) => (await import('./mcp/handler.ts')).handleMcp(request, deps);

const ROUTES = new Map<string, Route>([
  ['/deals', { methods: { GET: getDeals, POST: postDeals, PUT: putDeals, DELETE: deleteDeals }, cors: 'public', adminMethods: ['POST', 'PUT', 'DELETE'] }],
  ['/startups', { methods: { GET: getStartups }, cors: 'public' }],
  ['/submit-deal', { methods: { POST: postSubmitDeal }, cors: 'public' }],
  ['/auth/login', { methods: { POST: postLogin }, cors: 'same-origin' }],
  ['/auth/logout', { methods: { POST: postLogout }, cors: 'same-origin' }],
  ['/auth/session', { methods: { GET: getSession }, cors: 'same-origin' }],
  ['/auth/oidc', { methods: { GET: getOidcStart }, cors: 'same-origin' }],
  ['/auth/oidc/callback', { methods: { GET: getOidcCallback }, cors: 'same-origin' }],
  ['/admin/submissions', { methods: { GET: getSubmissions }, cors: 'same-origin' }],
  ['/admin/submissions/approve', { methods: { POST: approveSubmission }, cors: 'same-origin' }],
  ['/admin/submissions/reject', { methods: { POST: rejectSubmission }, cors: 'same-origin' }],
  ['/admin/search-gaps', { methods: { GET: getSearchGaps }, cors: 'same-origin' }],
  ['/health', { methods: { GET: getHealth }, cors: 'public' }],
  ['/hooks/content', { methods: { POST: postContentHook }, cors: 'same-origin' }],
  // SPEC: the tool-protocol server lives at /api/mcp. POST only: a stateless server has no SSE
  // stream for GET to open (left to the SDK, GET would hang forever) and no session for DELETE to
  // end, so they get the 405 of any other method, and Allow, OPTIONS and the preflight all say
  // `POST, OPTIONS` (issue 14, item 9). No GET here, so no HEAD either.
  ['/mcp', { methods: { POST: handleMcp }, cors: 'public', unversioned: true }],
]);

const EXPOSED_HEADERS = 'API-Version, ETag, Link, Retry-After, RateLimit, RateLimit-Policy, Server-Timing, Deprecation, Sunset, X-Request-Id';

/**
 * Answer one request under `/api`.
 * @example await handleApi(new Request('http://x/api/v1/deals?limit=1'), deps)
 */
export async function handleApi(request: Request, deps: Deps): Promise<Response> {
  const url = new URL(request.url);
  const target = resolvePath(url.pathname);
  const route = target && ROUTES.get(target.path);
  let response: Response;
  let rateHeaders: Record<string, string> = {};
  try {
    // The adapter may have decided already (before its response cache); otherwise count here.
    const decision = requestContext(request)?.rate ?? (await deps.rateLimits.consume(policyFor(target?.path ?? url.pathname, request.method), clientAddress(request)));
    rateHeaders = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new ApiError(429, 'rate_limited', 'Too many requests from this address.', {
        hint: `Wait ${decision.resetSeconds} seconds; see the RateLimit headers.`,
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
    if (!target || !route) {
      throw new ApiError(404, 'not_found', `There is no API endpoint at ${url.pathname}.`, {
        hint: 'See /openapi.json for the endpoints; deals are at /api/v1/deals, startups at /api/v1/startups.',
      });
    }
    response = await dispatch(request, deps, route);
  } catch (thrown) {
    response = await errorResponse(request, deps, thrown, url.pathname);
  }
  // A preflight asking for an admin method gets no CORS grant at all.
  const asked = request.method === 'OPTIONS' ? request.headers.get('access-control-request-method')?.toUpperCase() : undefined;
  const cors = route && asked && !publicMethods(route).includes(asked) ? 'same-origin' : (route?.cors ?? 'public');
  decorate(response, url, (target?.alias ?? false) && !route?.unversioned, cors);
  // A handler with a limit of its own (submissions) reports that one; others report the route's.
  if (!response.headers.has('RateLimit-Policy')) for (const [name, value] of Object.entries(rateHeaders)) response.headers.set(name, value);
  const lifecycle = target && route ? deps.lifecycle.get(target.path) : undefined;
  if (lifecycle) {
    const signals = lifecycleHeaders(lifecycle);
    response.headers.set('Deprecation', signals.deprecation);
    response.headers.set('Sunset', signals.sunset);
    for (const link of signals.links) response.headers.append('Link', link);
  }
  return response;
}

/** The `Allow` value for an API path (`undefined` when no route is there). */
export function allowFor(pathname: string): string | undefined {
  const target = resolvePath(pathname);
  const route = target && ROUTES.get(target.path);
  return route ? allowedMethods(route).join(', ') : undefined;
}

/**
 * The canonical path of the API route a request path names, or `undefined` for no route: a
 * bounded label for metrics, whatever paths clients invent.
 * @example apiRouteLabel('/api/deals/') // '/api/v1/deals'
 */
export function apiRouteLabel(pathname: string): string | undefined {
  const target = resolvePath(pathname);
  const route = target && ROUTES.get(target.path);
  if (!target || !route) return undefined;
  return route.unversioned ? `/api${target.path}` : `${VERSIONED_PREFIX}${target.path}`;
}

/** Route paths below `/api/v1` with their methods (for the OpenAPI document and tests). */
export function routeTable(): Map<string, string[]> {
  return new Map([...ROUTES].map(([path, route]) => [path, allowedMethods(route)]));
}

/** Methods another origin may use (DESIGN: admin endpoints are same-origin only). */
function publicMethods(route: Route): string[] {
  return allowedMethods(route).filter((m) => !route.adminMethods?.includes(m));
}

/** Allowed methods of a route, as sent in `Allow`. */
export function allowedMethods(route: Route): string[] {
  const methods = Object.keys(route.methods);
  if (route.methods.GET) methods.splice(1, 0, 'HEAD');
  return [...methods, 'OPTIONS'];
}

// --- internal ---

/** The route path below `/api/v1` a request path names, and whether it came through an alias. */
export function resolvePath(pathname: string): { path: string; alias: boolean } | undefined {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (trimmed.startsWith(`${VERSIONED_PREFIX}/`)) return { path: trimmed.slice(VERSIONED_PREFIX.length), alias: false };
  if (trimmed.startsWith('/api/') && !/^\/api\/v\d+(\/|$)/.test(trimmed)) return { path: trimmed.slice(4), alias: true };
  return undefined;
}

async function dispatch(request: Request, deps: Deps, route: Route): Promise<Response> {
  const allow = allowedMethods(route);
  if (request.method === 'OPTIONS') {
    const headers: Record<string, string> = { Allow: allow.join(', ') };
    if (route.cors === 'public') {
      headers['Access-Control-Allow-Methods'] = publicMethods(route).join(', ');
      headers['Access-Control-Allow-Headers'] = 'Content-Type, If-None-Match, If-Match, Accept, Accept-Encoding, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, Search-Intent';
      headers['Access-Control-Max-Age'] = '86400';
    }
    return new Response(null, { status: 204, headers });
  }
  const handler = route.methods[request.method === 'HEAD' ? 'GET' : request.method];
  if (!handler) throw methodNotAllowed(request.method, allow);
  return handler(request, deps);
}

async function errorResponse(request: Request, deps: Deps, thrown: unknown, path: string): Promise<Response> {
  const { error, unexpected } = asApiError(thrown);
  if (unexpected) {
    const requestId = requestContext(request)?.requestId;
    deps.log.error('unhandled_error', { requestId, method: request.method, path, error: thrown instanceof Error ? thrown.stack : String(thrown) });
  }
  return answerResponse(request, errorAnswer(error, deps.clock()));
}

function decorate(response: Response, url: URL, alias: boolean, cors: Route['cors']): void {
  const headers = response.headers;
  headers.set('API-Version', API_VERSION);
  if (alias) {
    // The query is kept for ordinary requests; a huge one would make the header too large for proxies.
    const successor = `${VERSIONED_PREFIX}${url.pathname.slice(4)}${url.search.length <= 1024 ? url.search : ''}`;
    headers.append('Link', `<${successor}>; rel="successor-version"`);
  }
  if (cors === 'public') {
    headers.set('Access-Control-Allow-Origin', '*');
    headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  }
}
