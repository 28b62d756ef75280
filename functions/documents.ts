/**
 * Documents outside `/api` that are functions of the catalog: llms files, sitemap, robots,
 * OpenAPI and the `/.well-known` discovery documents. Computed once per catalog version and
 * served with ETag/304 and compression, like API answers; the MCP resources read the same cache.
 */
import { llmsFullTxt, llmsTxt } from '../src/agents/llms.ts';
import { robotsTxt, sitemapXml } from '../src/agents/sitemap.ts';
import { paths } from '../src/agents/site-urls.ts';
import type { Catalog } from '../src/catalog/catalog.ts';
import type { Deps } from './deps.ts';
import { answerResponse, errorAnswer, textAnswer, type Answer } from './http/answer.ts';
import { ApiError, asApiError, methodNotAllowed } from './http/errors.ts';
import { agentCard, apiCatalog, API_CATALOG_TYPE, authorizationServerMetadata, jsonWebKeySet, protectedResourceMetadata } from './docs/discovery.ts';
import { openApiDocument } from './docs/openapi.ts';

interface DocumentSpec {
  type: string;
  render: (catalog: Catalog, deps: Deps) => string;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const pretty = (value: unknown) => JSON.stringify(value, null, 2);

const DOCUMENTS = new Map<string, DocumentSpec>([
  [paths.llms, { type: 'text/plain; charset=utf-8', render: (c) => llmsTxt(c) }],
  [paths.llmsFull, { type: 'text/plain; charset=utf-8', render: (c) => llmsFullTxt(c) }],
  [paths.sitemap, { type: 'application/xml; charset=utf-8', render: (c) => sitemapXml(c) }],
  [paths.robots, { type: 'text/plain; charset=utf-8', render: (c) => robotsTxt(c) }],
  [paths.openapi, { type: JSON_TYPE, render: (c, deps) => pretty(openApiDocument(c, deps.lifecycle)), headers: { Link: `<${paths.apiCatalog}>; rel="api-catalog"` } }],
  [paths.apiCatalog, { type: API_CATALOG_TYPE, render: (c) => pretty(apiCatalog(c.site)), headers: { Link: `<${paths.apiCatalog}>; rel="api-catalog"` } }],
  [paths.agentCard, { type: JSON_TYPE, render: (c) => pretty(agentCard(c.site)) }],
  ['/.well-known/oauth-protected-resource', { type: JSON_TYPE, render: (c) => pretty(protectedResourceMetadata(c.site)) }],
  // RFC 9728 §3: the metadata of resource <origin>/api/v1 is also at the well-known path plus /api/v1.
  [`/.well-known/oauth-protected-resource${paths.api}`, { type: JSON_TYPE, render: (c) => pretty(protectedResourceMetadata(c.site)) }],
  ['/.well-known/oauth-authorization-server', { type: JSON_TYPE, render: (c, deps) => pretty(authorizationServerMetadata(c.site, deps.config.oidc?.issuer)) }],
  ['/.well-known/openid-configuration', { type: JSON_TYPE, render: (c, deps) => pretty(authorizationServerMetadata(c.site, deps.config.oidc?.issuer)) }],
  ['/.well-known/jwks.json', { type: JSON_TYPE, render: () => pretty(jsonWebKeySet()) }],
]);

/** Whether `pathname` is one of these documents. */
export const isDocument = (pathname: string): boolean => DOCUMENTS.has(pathname);

/** A document rendered for one catalog version: its text, and the HTTP answer made of it. */
interface Rendered {
  text: string;
  answer: Answer;
}

/** One cache for GET and MCP, keyed by the catalog object: every content change replaces it (a new version). */
const rendered = new WeakMap<Catalog, Map<string, Rendered>>();
const counts = { renders: 0, hits: 0 };

/** How often a document was rendered, and how often it came from the cache, since start. */
export const documentCacheCounts = (): { renders: number; hits: number } => ({ ...counts });

/**
 * The text of a document for `catalog`, from the cache GET answers from: the MCP resources
 * return it (rendering llms-full.txt per read let small requests cost seconds).
 * @example documentText(paths.llmsFull, deps.state().catalog, deps)
 */
export function documentText(pathname: string, catalog: Catalog, deps: Deps): string {
  const spec = DOCUMENTS.get(pathname);
  if (!spec) throw new Error(`${pathname} is not a document`);
  return renderedDocument(pathname, spec, catalog, deps).text;
}

/**
 * Answer a document request (GET or HEAD; OPTIONS for CORS preflight).
 * @example await handleDocument(new Request('http://x/llms.txt'), deps)
 */
export async function handleDocument(request: Request, deps: Deps): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  const spec = DOCUMENTS.get(pathname);
  let response: Response;
  try {
    if (!spec) throw new ApiError(404, 'not_found', `No document at ${pathname}.`);
    if (request.method === 'OPTIONS') {
      response = new Response(null, { status: 204, headers: { Allow: 'GET, HEAD, OPTIONS', 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' } });
    } else {
      if (request.method !== 'GET' && request.method !== 'HEAD') throw methodNotAllowed(request.method, ['GET', 'HEAD', 'OPTIONS']);
      response = await answerResponse(request, renderedDocument(pathname, spec, deps.state().catalog, deps).answer);
    }
  } catch (thrown) {
    const { error } = asApiError(thrown);
    response = await answerResponse(request, errorAnswer(error, deps.clock()));
  }
  response.headers.set('API-Version', 'v1');
  response.headers.set('Access-Control-Allow-Origin', '*');
  return response;
}

// --- internal ---

/** A document for `catalog`: rendered on first use, then from the cache. */
function renderedDocument(pathname: string, spec: DocumentSpec, catalog: Catalog, deps: Deps): Rendered {
  let documents = rendered.get(catalog);
  if (!documents) rendered.set(catalog, (documents = new Map()));
  let document = documents.get(pathname);
  if (document) {
    counts.hits++;
    return document;
  }
  counts.renders++;
  const text = spec.render(catalog, deps);
  const answer = textAnswer(200, text, { 'Cache-Control': 'public, max-age=300', ...spec.headers });
  answer.headers['Content-Type'] = spec.type;
  documents.set(pathname, (document = { text, answer }));
  return document;
}
