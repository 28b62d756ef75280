/**
 * The front door: one Web-standard `fetch(request, client)` for the whole service, used by
 * every platform adapter. A request passes the steps below in order (http/middleware.ts), then
 * is answered by what its path names in the route table (http/routes.ts): an API handler, a
 * document, the metrics, or the site.
 */
import type { Deps } from '../deps.ts';
import { Metrics } from '../ops/metrics.ts';
import { documentAnswer } from '../docs/document-cache.ts';
import { answerResponse } from './answer.ts';
import { ApiError, methodNotAllowed } from './errors.ts';
import { allowOf, answerCache, compose, contextFor, cors, errorWriter, identify, observe, rateLimit, versioning, type Client, type RequestContext } from './middleware.ts';
import type { Method } from './routes.ts';

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
  const handle = compose([observe(deps, metrics), identify(deps), rateLimit(deps), cors, versioning(deps), answerCache(deps)], (request, context) => answer(request, context), errorWriter(deps));
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
