/**
 * The building blocks of the OpenAPI document: media types, response and header objects, the
 * error answers by status, query-parameter tables as parameters. The route table
 * (http/routes.ts) describes each operation with them; docs/openapi.ts assembles the document.
 */
import * as z from 'zod';
import type { QueryParam } from '../../src/schemas/query.ts';

export type Json = Record<string, unknown>;
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: Json, examples?: Json) => ({ 'application/json': { schema, ...(examples ? { examples } : {}) } });
/** The two HTML form encodings the server reads as the JSON object of the same fields (http/request-body.ts). */
export const forms = (schema: Json) => ({ 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } });
/** Content of a body taken as JSON or as an HTML form post (the pages that work without JavaScript). */
export const jsonOrForm = (schema: Json, examples?: Json) => ({ ...json(schema, examples), ...forms(schema) });

/** JSON Schema of a zod schema for embedding in components (no `$schema` key). */
export function component(schema: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  return withoutDialect(z.toJSONSchema(schema, { io }) as Json);
}

/**
 * Named zod schemas as OpenAPI components: a schema used inside another named one becomes a
 * `$ref` to its component (a deal list refers to `Deal`).
 */
export function schemaComponents(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io, uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const copy = withoutDialect(schema);
      delete copy.$id;
      return [id, copy];
    }),
  );
}

/** A JSON Schema without its `$schema` key (the document declares the dialect once). */
export function withoutDialect(schema: Json): Json {
  const copy = { ...schema };
  delete copy.$schema;
  return copy;
}

/** Error answers by status, each the SPEC error object: what it means, and an example. */
export const ERROR_STATUSES: Record<string, { description: string; example: { error: string; code: string; hint: string } }> = {
  '400': {
    description: 'Invalid input: `validation_error` (a field or parameter), `bad_request` (malformed body), `conflict` (duplicate slug).',
    example: {
      error: 'Invalid value for query parameter `limit`: expected a whole number.',
      code: 'validation_error',
      hint: 'Allowed values for `limit`: a whole number from 1 (values above 5000 are capped at 5000).',
    },
  },
  '401': {
    description: '`unauthorized`: no valid session.',
    example: { error: 'This operation needs a signed-in admin session.', code: 'unauthorized', hint: 'Sign in on /login; the session cookie then authorizes admin requests.' },
  },
  '403': {
    description: '`forbidden`: not an admin, or a cross-site request.',
    example: { error: 'This operation is for admins only.', code: 'forbidden', hint: 'Ask an admin to grant you the admin role.' },
  },
  '402': {
    description: '`forbidden`: the feature needs a plan (paid plans on, PLAN_REQUIRED_FOR naming it) and the account is not on one.',
    example: { error: 'Saving deals needs a plan on this site.', code: 'forbidden', hint: 'Start the 30-day trial or renew your plan on /account/billing/ (POST /api/v1/me/billing/checkout).' },
  },
  '404': {
    description: '`not_found`: no deal (or listing, submission, version) matches; verify the id or slug.',
    example: { error: 'No deal matches slug `no-such-deal`.', code: 'not_found', hint: 'Verify the id or slug: list deals with GET /api/v1/deals or search with GET /api/v1/deals?search=<words>.' },
  },
  '405': { description: '`method_not_allowed`, with `Allow`.', example: { error: 'Method PATCH is not supported here.', code: 'method_not_allowed', hint: 'Use GET, HEAD, OPTIONS.' } },
  '412': {
    description: '`conflict`: `If-Match` does not match the current ETag of the deal or listing.',
    example: { error: 'The deal has changed since you read it.', code: 'conflict', hint: 'GET the deal again, re-apply your change and send the new ETag in If-Match.' },
  },
  '413': { description: '`bad_request`: the body is too large.', example: { error: 'The request body is larger than 262144 bytes.', code: 'bad_request', hint: 'Send a smaller body.' } },
  '415': {
    description: '`bad_request`: the body is neither JSON nor an HTML form.',
    example: { error: 'Content-Type text/plain is not supported.', code: 'bad_request', hint: 'Send a JSON body with Content-Type: application/json.' },
  },
  '429': { description: '`rate_limited`, with `Retry-After`.', example: { error: 'Too many requests from this address.', code: 'rate_limited', hint: 'Wait 42 seconds; see the RateLimit headers.' } },
  '500': {
    description: '`internal_error`.',
    example: { error: 'The server failed to answer this request.', code: 'internal_error', hint: 'Try again; if it keeps failing, report it to the site owner.' },
  },
  '503': {
    description: '`service_unavailable`, with `Retry-After`.',
    example: { error: 'The content store cannot take changes right now.', code: 'service_unavailable', hint: 'Nothing was changed; try again in a minute.' },
  },
};

/** Response header components. `Deprecation` and `Sunset` are defined only when a documented route is deprecated. */
export const HEADERS: Record<string, Json> = {
  'API-Version': { description: 'The API version that answered (`v1`).', schema: { type: 'string', const: 'v1' } },
  'X-Request-Id': {
    description: "Names this request in the server's log; a valid `X-Request-Id` sent with the request (1 to 64 letters, digits, `_`, `.`, `:`, `-`) is used as it is.",
    schema: { type: 'string' },
  },
  'RateLimit-Policy': { description: 'draft-ietf-httpapi-ratelimit-headers: the policy that counted this request, `"name";q=<quota>;w=<window seconds>`.', schema: { type: 'string' } },
  RateLimit: { description: 'draft-ietf-httpapi-ratelimit-headers: what is left of it, `"name";r=<remaining>;t=<seconds>`.', schema: { type: 'string' } },
  Link: { description: '`successor-version` on answers to an unversioned `/api` alias and on deprecated routes; `deprecation` (the written policy) on deprecated routes.', schema: { type: 'string' } },
  ETag: { description: 'Strong validator; send it back in `If-None-Match` (304) or `If-Match` (writes).', schema: { type: 'string' } },
  'Server-Timing': { description: '`app;dur=<ms>`: how long the answer took inside the server, or `cache;desc="hit"` when it came from a cache.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  Deprecation: { description: 'RFC 9745: `@<unix seconds>` on deprecated routes.', schema: { type: 'string' } },
  Sunset: { description: 'RFC 8594: HTTP date after which a deprecated route may stop answering.', schema: { type: 'string' } },
};

/** What every `/api` answer carries (router, adapter): the version, the request id, the rate limit, and `Link` on aliases. */
export const API_HEADERS = ['API-Version', 'X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'Link'];
/** `/api/mcp` is not versioned: no alias, so no successor `Link`. */
export const MCP_HEADERS = API_HEADERS.filter((name) => name !== 'Link');
/** What a deprecated route adds to every answer (SPEC "Versioning" 5). */
export const LIFECYCLE_HEADERS = ['Deprecation', 'Sunset'];

export const headerRefs = (names: readonly string[]): Json => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
export const plainHeader = (description: string): Json => ({ description, schema: { type: 'string' } });
export const CACHE_CONTROL = plainHeader('`public, max-age=60` on lists and lookups, `no-store` on personal or changing answers.');
export const LOCATION = plainHeader('Where the browser goes next.');
export const SET_COOKIE = plainHeader('The session cookie (or, on sign-out, its removal).');

/** One documented answer: the headers the router adds, `headers`, and a body when a media type is given. */
export function answer(description: string, options: { content?: Json; headers?: Json; common?: readonly string[] } = {}): Json {
  return {
    description,
    headers: { ...headerRefs(options.common ?? API_HEADERS), ...options.headers },
    ...(options.content ? { content: options.content } : {}),
  };
}

/** The error response component for a status. */
export function errorResponse(status: string): Json {
  const { description, example } = ERROR_STATUSES[status] as (typeof ERROR_STATUSES)[string];
  return answer(description, {
    headers: {
      ...(status === '405' ? { Allow: plainHeader('The methods this path answers.') } : {}),
      ...(status === '429' || status === '503' ? headerRefs(['Retry-After']) : {}),
    },
    content: json(ref('Error'), {
      [`error${status}`]: { summary: description.split(':')[0]?.replaceAll('`', '') ?? status, value: { success: false, ...example, timestamp: '2026-11-23T10:00:00.000Z' } },
    }),
  });
}

/** Tags, in the order a reader meets them. */
export const TAGS = [
  { name: 'deals', description: 'The catalog of deals and programs: public reads, admin writes.' },
  { name: 'startups', description: 'Startups and small businesses listed for sale.' },
  { name: 'submissions', description: "Deals submitted by anyone, and the editors' review queue." },
  { name: 'auth', description: 'Signing up, in (password, mailed link or the OpenID Connect provider) and out: pages for people in a browser; no credential for agents.' },
  { name: 'members', description: "A signed-in member's own area (saved deals and startups): people in a browser only, with the same-origin session cookie; agents send their person to /login." },
  { name: 'billing', description: "Optional paid plans: a member's plan, Stripe Checkout and the customer portal (browser sessions only), and Stripe's signed webhook." },
  { name: 'admin', description: "Operations for signed-in admins and for the content repository's webhook." },
  { name: 'agents', description: 'The Model Context Protocol server for AI agents.' },
  { name: 'health', description: 'Liveness and what the instance serves.' },
];

/** Branches for `anyOf`/`oneOf`, each requiring one of `names` (and naming it, as ajv's strict mode asks). */
export function requiring(names: readonly string[]): Json[] {
  return names.map((name) => ({ required: [name], properties: { [name]: true } }));
}

/** A query-parameter table (src/schemas/query.ts) as OpenAPI parameters. */
export function parameters(table: Record<string, QueryParam>): Json[] {
  return Object.entries(table).map(([name, param]) => ({
    name,
    in: 'query',
    required: false,
    description: param.description,
    schema: param.openapi ?? component(param.schema as z.ZodType, 'input'),
  }));
}

/** The same responses with more headers (a `$ref`'d error response is inlined to carry them). */
export function withHeaders(responses: Json, names: readonly string[]): Json {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const plain = typeof (response as Json).$ref === 'string' ? errorResponse(status) : (response as Json);
      return [status, { ...plain, headers: { ...(plain.headers as Json), ...headerRefs(names) } }];
    }),
  );
}

/** Errors by status, as references to the shared error responses. */
export const errors = (...statuses: string[]): Json => Object.fromEntries(statuses.map((s) => [s, { $ref: `#/components/responses/E${s}` }]));
/** A 200-style answer with a JSON body. */
export const ok = (description: string, schema: Json, options: { headers?: Json; examples?: Json | undefined } = {}): Json =>
  answer(description, { content: json(schema, options.examples), headers: options.headers ?? {} });
export const etag = headerRefs(['ETag']);
/** What a cacheable public read carries. */
export const cached = { ...headerRefs(['ETag', 'Server-Timing']), 'Cache-Control': CACHE_CONTROL };
export const notModified = (headers: Json = etag): Json => answer('Not modified: `If-None-Match` names the current ETag.', { headers });

// --- record parameters (admin routes) ---

/** The `If-Match` header of a record write. */
export const IF_MATCH = (noun: string): Json => ({
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: `The ${noun}'s ETag from GET; 412 when it changed since.`,
});

/** `errors=all`: a 400 `validation_error` also lists every problem in `fields` (`of`: whose problems, such as `the submission`). */
export const ERRORS_ALL = (of: string): Json => ({
  name: 'errors',
  in: 'query',
  required: false,
  description: `\`all\`: a 400 \`validation_error\` also lists every problem of ${of} in \`fields\` (one per field, the one \`error\` names first). Without it the error object has only its usual fields.`,
  schema: { type: 'string', enum: ['all'] },
});

/** The parameters of a record DELETE: `id`, `ids`, `slug` and `If-Match`. */
export function deleteParameters(noun: string, example: { id?: string | undefined; slug?: string | undefined }): Json[] {
  const required = 'One of `id`, `ids` or `slug` is required.';
  const [id, slug] = nameParameters(noun, example, required);
  return [id, { ...id, name: 'ids', description: `Comma-separated ${noun} ids. ${required}` }, slug, IF_MATCH(noun)] as Json[];
}

/** `id` and `slug` query parameters naming one record (`required`: the sentence saying which is needed). */
export function nameParameters(noun: string, example: { id?: string | undefined; slug?: string | undefined }, required: string): Json[] {
  return [
    { name: 'id', in: 'query', description: `A ${noun} id. ${required}`, schema: { type: 'string' }, ...(example.id ? { example: example.id } : {}) },
    { name: 'slug', in: 'query', description: `A ${noun} slug. ${required}`, schema: { type: 'string' }, ...(example.slug ? { example: example.slug } : {}) },
  ];
}

/** `limit` and `offset` of a paged admin list (`maxOffset`: how far it reaches, when it is bounded). */
export function pageParameters(page: { default: number; max: number }, maxOffset?: number): Json[] {
  return [
    { name: 'limit', in: 'query', description: `Page size; above ${page.max} it is capped at ${page.max}.`, schema: { type: 'integer', minimum: 1, default: page.default } },
    { name: 'offset', in: 'query', description: 'How many to skip.', schema: { type: 'integer', minimum: 0, ...(maxOffset === undefined ? {} : { maximum: maxOffset }), default: 0 } },
  ];
}
