/**
 * `/openapi.json`: the OpenAPI 3.1 description of the running service, generated from the
 * schemas the code validates with (zod → JSON Schema), the query-parameter tables, the route
 * lifecycle table, the versioning policy and the catalog it serves (category slugs, examples
 * answered by the same functions as the API). Nothing in it restates a field list by hand.
 *
 * What linters and fuzzers hold it to (`npm run lint:openapi`, tests/integration/agents-openapi*.test.ts):
 * every request rule the server enforces is in the schemas, every operation says its `security`
 * (`[]` when public), every response lists the headers the server really sends on it, and every
 * component is used.
 */
import * as z from 'zod';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { DealSchema, DEAL_STATUSES } from '../../src/schemas/deal.ts';
import { DEAL_LIST_PARAMS, STARTUP_LIST_PARAMS, type QueryParam } from '../../src/schemas/query.ts';
import { StartupSchema } from '../../src/schemas/startup.ts';
import { submissionJsonSchema } from '../../src/schemas/submission.ts';
import { HEALTH_PROBLEMS } from '../api/health.ts';
import { dealsAnswer } from '../api/deals.ts';
import { startupsAnswer } from '../api/startups.ts';
import { ERROR_CODES } from '../http/errors.ts';
import { DEPRECATION_NOTICE_DAYS, type RouteLifecycle } from '../lifecycle.ts';
import { SESSION_COOKIE } from '../auth/session.ts';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, examples?: Json) => ({ 'application/json': { schema, ...(examples ? { examples } : {}) } });
/** The two HTML form encodings the server reads as the JSON object of the same fields (http/request-body.ts). */
const forms = (schema: Json) => ({ 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } });

/** JSON Schema of a zod schema for embedding in components (no `$schema` key). */
function component(schema: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  return withoutDialect(z.toJSONSchema(schema, { io }) as Json);
}

/** A JSON Schema without its `$schema` key (the document declares the dialect once). */
function withoutDialect(schema: Json): Json {
  const copy = { ...schema };
  delete copy.$schema;
  return copy;
}

const STATS = z.object({
  total: z.number().int(),
  active: z.number().int(),
  expired: z.number().int(),
  featured: z.number().int(),
  recommended: z.number().int(),
  scope: z.enum(['deals', 'programs', 'all']),
  byCategory: z.record(z.string(), z.number().int()),
});

const ERROR = z.strictObject({
  success: z.literal(false),
  error: z.string().describe('Human-readable message.'),
  code: z.enum(ERROR_CODES).describe('Stable machine-readable code.'),
  hint: z.string().optional().describe('Suggested next step.'),
  timestamp: z.iso.datetime({ offset: true }),
});

/** Error answers by status, each the SPEC error object: what it means, and an example. */
const ERROR_STATUSES: Record<string, { description: string; example: { error: string; code: string; hint: string } }> = {
  '400': {
    description: 'Invalid input: `validation_error` (a field or parameter), `bad_request` (malformed body), `conflict` (duplicate slug).',
    example: { error: 'Invalid value for query parameter `limit`: expected a whole number.', code: 'validation_error', hint: 'Allowed values for `limit`: a whole number from 1 (values above 5000 are capped at 5000).' },
  },
  '401': { description: '`unauthorized`: no valid session.', example: { error: 'This operation needs a signed-in admin session.', code: 'unauthorized', hint: 'Sign in on /login; the session cookie then authorizes admin requests.' } },
  '403': { description: '`forbidden`: not an admin, or a cross-site request.', example: { error: 'This operation is for admins only.', code: 'forbidden', hint: 'Ask an admin to grant you the admin role.' } },
  '404': { description: '`not_found`: no deal matches; verify the id or slug.', example: { error: 'No deal matches slug `no-such-deal`.', code: 'not_found', hint: 'Verify the id or slug: list deals with GET /api/v1/deals or search with GET /api/v1/deals?search=<words>.' } },
  '405': { description: '`method_not_allowed`, with `Allow`.', example: { error: 'Method PATCH is not supported here.', code: 'method_not_allowed', hint: 'Use GET, HEAD, OPTIONS.' } },
  '412': { description: '`conflict`: `If-Match` does not match the deal\'s current ETag.', example: { error: 'The deal has changed since you read it.', code: 'conflict', hint: 'GET the deal again, re-apply your change and send the new ETag in If-Match.' } },
  '413': { description: '`bad_request`: the body is too large.', example: { error: 'The request body is larger than 262144 bytes.', code: 'bad_request', hint: 'Send a smaller body.' } },
  '415': { description: '`bad_request`: the body is neither JSON nor an HTML form.', example: { error: 'Content-Type text/plain is not supported.', code: 'bad_request', hint: 'Send a JSON body with Content-Type: application/json.' } },
  '429': { description: '`rate_limited`, with `Retry-After`.', example: { error: 'Too many requests from this address.', code: 'rate_limited', hint: 'Wait 42 seconds; see the RateLimit headers.' } },
  '500': { description: '`internal_error`.', example: { error: 'The server failed to answer this request.', code: 'internal_error', hint: 'Try again; if it keeps failing, report it to the site owner.' } },
  '503': { description: '`service_unavailable`, with `Retry-After`.', example: { error: 'The content store cannot take changes right now.', code: 'service_unavailable', hint: 'Nothing was changed; try again in a minute.' } },
};

/** Response header components. `Deprecation` and `Sunset` are defined only when a documented route is deprecated. */
const HEADERS: Record<string, Json> = {
  'API-Version': { description: 'The API version that answered (`v1`).', schema: { type: 'string', const: 'v1' } },
  'X-Request-Id': { description: 'Names this request in the server\'s log; a valid `X-Request-Id` sent with the request (1 to 64 letters, digits, `_`, `.`, `:`, `-`) is used as it is.', schema: { type: 'string' } },
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
const API_HEADERS = ['API-Version', 'X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'Link'];
/** `/api/mcp` is not versioned: no alias, so no successor `Link`. */
const MCP_HEADERS = API_HEADERS.filter((name) => name !== 'Link');
/** What a deprecated route adds to every answer (SPEC "Versioning" 5). */
const LIFECYCLE_HEADERS = ['Deprecation', 'Sunset'];

const headerRefs = (names: readonly string[]): Json => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const plainHeader = (description: string): Json => ({ description, schema: { type: 'string' } });
const CACHE_CONTROL = plainHeader('`public, max-age=60` on lists and lookups, `no-store` on personal or changing answers.');
const LOCATION = plainHeader('Where the browser goes next.');
const SET_COOKIE = plainHeader('The session cookie (or, on sign-out, its removal).');

/** One documented answer: the headers the router adds, `headers`, and a body when a media type is given. */
function answer(description: string, options: { content?: Json; headers?: Json; common?: readonly string[] } = {}): Json {
  return {
    description,
    headers: { ...headerRefs(options.common ?? API_HEADERS), ...options.headers },
    ...(options.content ? { content: options.content } : {}),
  };
}

/** The error response component for a status. */
function errorResponse(status: string): Json {
  const { description, example } = ERROR_STATUSES[status] as (typeof ERROR_STATUSES)[string];
  return answer(description, {
    headers: {
      ...(status === '405' ? { Allow: plainHeader('The methods this path answers.') } : {}),
      ...(status === '429' || status === '503' ? headerRefs(['Retry-After']) : {}),
    },
    content: json(ref('Error'), { [`error${status}`]: { summary: description.split(':')[0]?.replaceAll('`', '') ?? status, value: { success: false, ...example, timestamp: '2026-11-23T10:00:00.000Z' } } }),
  });
}

/** Tags, in the order a reader meets them. */
const TAGS = [
  { name: 'deals', description: 'The catalog of deals and programs: public reads, admin writes.' },
  { name: 'startups', description: 'Startups and small businesses listed for sale.' },
  { name: 'submissions', description: 'Deals submitted by anyone, and the editors\' review queue.' },
  { name: 'auth', description: 'Signing in and out (browser sessions; no credential for agents).' },
  { name: 'admin', description: 'Operations for signed-in admins and for the content repository\'s webhook.' },
  { name: 'agents', description: 'The Model Context Protocol server for AI agents.' },
  { name: 'health', description: 'Liveness and what the instance serves.' },
];

/**
 * @example openApiDocument(catalog, lifecycle).openapi // '3.1.0'
 */
export function openApiDocument(catalog: Catalog, lifecycle: ReadonlyMap<string, RouteLifecycle>): Json {
  const { site } = catalog;
  const url = (path: string) => absolute(site.baseUrl, path);
  const errors = (...statuses: string[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: `#/components/responses/E${s}` }]));
  let deprecated = 0;
  const withLifecycle = (path: string, operation: Json): Json => {
    const row = lifecycle.get(path);
    if (!row) return operation;
    deprecated++;
    return { ...operation, responses: withHeaders(operation.responses as Json, LIFECYCLE_HEADERS), deprecated: true, 'x-deprecation': { deprecatedAt: row.deprecatedAt, sunsetAt: row.sunsetAt, successor: row.successor } };
  };
  const publicAccess = { security: [] };
  const admin = { security: [{ sessionCookie: [] }] };
  /** Works without a session; a session changes what it does (health details, which session ends). */
  const optionalSession = { security: [{}, { sessionCookie: [] }] };
  const ok = (description: string, schema: Json, options: { headers?: Json; examples?: Json } = {}) => answer(description, { content: json(schema, options.examples), headers: options.headers ?? {} });
  const etag = headerRefs(['ETag']);
  const cached = { ...headerRefs(['ETag', 'Server-Timing']), 'Cache-Control': CACHE_CONTROL };
  const notModified = (headers: Json = etag) => answer('Not modified: `If-None-Match` names the current ETag.', { headers });
  const examples = catalogExamples(catalog);
  const deals = catalog.categories.deals;

  const documentPaths = {
    '/api/v1/deals': {
      get: withLifecycle('/deals', {
        operationId: 'listOrSearchDeals',
        tags: ['deals'],
        summary: 'List, search or look up deals',
        description: 'Lists, searches and filters deals (or programs, with `scope`), or looks one up by `slug` or `id`, which answers the single-deal shape. Matching, ranking and ordering: the API guide (docs/api.md). `stats` counts every match before `limit`.',
        ...publicAccess,
        parameters: [
          ...parameters(DEAL_LIST_PARAMS),
          { name: 'Search-Intent', in: 'header', description: '`incremental`: a search sent while someone is still typing; answered as usual, not counted among finished searches (docs/search-gaps.md).', schema: { type: 'string', enum: ['incremental'] } },
        ],
        responses: {
          '200': ok('A single deal (with `slug` or `id`) or a list.', { oneOf: [ref('DealAnswer'), ref('DealList')] }, { headers: cached, examples: examples.deals }),
          '304': notModified(headerRefs(['ETag', 'Server-Timing'])),
          ...errors('400', '404', '429', '500'),
        },
      }),
      post: withLifecycle('/deals', {
        operationId: 'createDeal',
        tags: ['deals'],
        summary: 'Create a deal, or bulk-upsert deals by slug',
        description: 'One deal: its defaults filled (`id`, `slug` from the title, `status` `active`, flags `false`, `lastUpdated` today); an existing slug is a 400 `conflict`. `{ "deals": [...] }`: every deal created or updated by slug, all or nothing, in one commit. Same-origin only (`Origin`).',
        ...admin,
        requestBody: { required: true, content: json({ oneOf: [ref('DealInput'), ref('BulkDeals')] }, examples.createDeal) },
        responses: {
          '200': ok('Created (the deal, with its ETag), or bulk upsert processed (the counts).', { anyOf: [ref('DealAnswer'), ref('WriteResult')] }, { headers: etag }),
          ...errors('400', '401', '403', '413', '415', '429', '500', '503'),
        },
      }),
      put: withLifecycle('/deals', {
        operationId: 'updateDeal',
        tags: ['deals'],
        summary: 'Update a deal by id or slug',
        description: '`id` and/or `slug` name the deal (at least one is required); with an `id`, a new `slug` renames the deal and keeps its id. Every other field given replaces the stored one; `null` removes an optional field. `lastUpdated` becomes today unless given.',
        ...admin,
        parameters: [{ name: 'If-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The deal\'s ETag from GET; 412 when it changed since.' }],
        requestBody: { required: true, content: json(ref('DealUpdate'), examples.updateDeal) },
        responses: { '200': ok('Updated (the deal as now served, with its ETag).', ref('DealAnswer'), { headers: etag }), ...errors('400', '401', '403', '404', '412', '413', '415', '429', '500', '503') },
      }),
      delete: withLifecycle('/deals', {
        operationId: 'deleteDeal',
        tags: ['deals'],
        summary: 'Delete deals by id, ids or slug',
        description: 'Deletes the deals named by `id`, `ids` (comma-separated ids) and `slug`, in one commit. At least one of `id`, `ids` or `slug` is required: without any (or with only empty values) the answer is 400 `validation_error`. Every deal named must exist (else 404, nothing deleted). `If-Match` applies when one deal is named.',
        ...admin,
        parameters: [
          { name: 'id', in: 'query', description: 'A deal id. One of `id`, `ids` or `slug` is required.', schema: { type: 'string' }, example: examples.dealId },
          { name: 'ids', in: 'query', description: 'Comma-separated deal ids. One of `id`, `ids` or `slug` is required.', schema: { type: 'string' }, example: examples.dealId },
          { name: 'slug', in: 'query', description: 'A deal slug. One of `id`, `ids` or `slug` is required.', schema: { type: 'string' }, example: examples.dealSlug },
          { name: 'If-Match', in: 'header', required: false, description: 'The deal\'s ETag from GET; 412 when it changed since.', schema: { type: 'string' } },
        ],
        responses: { '200': ok('Deleted.', ref('WriteResult')), ...errors('400', '401', '403', '404', '412', '429', '500', '503') },
      }),
    },
    '/api/v1/startups': {
      get: withLifecycle('/startups', {
        operationId: 'listStartups',
        tags: ['startups'],
        summary: 'Filter startups listed for sale',
        description: 'Every filter combines with AND; revenue bounds are inclusive and a listing without a revenue figure never satisfies one. Order: featured, for sale, newest, name (with `search`: relevance first).',
        ...publicAccess,
        parameters: parameters(STARTUP_LIST_PARAMS),
        responses: {
          '200': ok('Matching listings.', ref('StartupList'), { headers: cached, examples: examples.startups }),
          '304': notModified(headerRefs(['ETag', 'Server-Timing'])),
          ...errors('400', '405', '429', '500'),
        },
      }),
    },
    '/api/v1/submit-deal': {
      post: withLifecycle('/submit-deal', {
        operationId: 'submitDeal',
        tags: ['submissions'],
        summary: 'Submit a deal for editorial review',
        description: 'Anyone may submit; 5 are accepted per address per rolling hour (refused ones do not count). 201 once the submission is stored durably in the private submission store (no git commit); the same company and link within a day answers the earlier id with `duplicate: true`. The `RateLimit` fields of a 201 or 429 report the hourly submission limit.',
        ...publicAccess,
        requestBody: { required: true, content: { ...json(ref('DealSubmission'), examples.submitDeal), ...forms(ref('DealSubmission')) } },
        responses: {
          '201': ok('Accepted for review.', ref('SubmissionAccepted'), { examples: { accepted: { summary: 'Accepted', value: { success: true, id: 'sub-4f3c2b1a09e8d7c6' } } } }),
          '303': answer('A plain HTML form post (a form encoding with `Accept: text/html`): redirect to the thanks page, or back to the form with an `error` code (`required`, `too_short`, `too_long`, `not_allowed`, `invalid_url`, `invalid_email`, `invalid`, `too_many`, `too_large`) and the `field` it names, never text.', { headers: { Location: LOCATION } }),
          ...errors('400', '405', '413', '415', '429', '500', '503'),
        },
      }),
    },
    '/api/v1/auth/login': {
      post: {
        operationId: 'signIn',
        tags: ['auth'],
        summary: 'Sign in with a local account',
        description: 'Sets the session cookie. Same-origin only (`Origin`). Failed attempts are limited per address and e-mail (429 with `Retry-After`). A form post gets a 303 redirect instead of JSON.',
        ...publicAccess,
        requestBody: { required: true, content: { ...json(ref('SignIn'), { signIn: { summary: 'E-mail and password', value: { email: 'editor@example.com', password: 'correct horse battery staple' } } }), ...forms(ref('SignIn')) } },
        responses: {
          '200': ok('Signed in.', ref('SessionAnswer'), { headers: { 'Set-Cookie': SET_COOKIE } }),
          '303': answer('Form post: to the admin pages (signed in) or back to /login with an `error` reason.', { headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE } }),
          ...errors('400', '401', '403', '413', '415', '429', '500'),
        },
      },
    },
    '/api/v1/auth/logout': {
      post: {
        operationId: 'signOut',
        tags: ['auth'],
        summary: 'Sign out',
        description: 'The session sent is revoked until it would have expired (a copied cookie stops working too); `everywhere` ends every session of the account. Without a session it only clears the cookie. Same-origin only (`Origin`). A form post gets a 303 redirect.',
        ...optionalSession,
        requestBody: {
          required: false,
          content: { ...json(ref('SignOut'), { everywhere: { summary: 'End every session of this account', value: { everywhere: true } } }), ...forms(ref('SignOut')) },
        },
        responses: {
          '200': ok('Signed out.', { type: 'object', required: ['success'], properties: { success: { const: true } } }, { headers: { 'Set-Cookie': SET_COOKIE } }),
          '303': answer('Form post: to /login.', { headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE } }),
          ...errors('403', '429', '500'),
        },
      },
    },
    '/api/v1/auth/oidc': {
      get: {
        operationId: 'signInWithProvider',
        tags: ['auth'],
        summary: 'Sign in through the OpenID Connect provider',
        description: 'Browser sign-in, when a provider is configured (404 otherwise): redirects to it (authorization code flow with PKCE).',
        ...publicAccess,
        responses: { '303': answer('To the provider, or to /login with an `error` reason.', { headers: { Location: LOCATION, 'Set-Cookie': plainHeader('The short-lived sign-in flow cookie.') } }), ...errors('404', '429', '500') },
      },
    },
    '/api/v1/auth/oidc/callback': {
      get: {
        operationId: 'providerCallback',
        tags: ['auth'],
        summary: 'Return from the OpenID Connect provider',
        description: 'Where the provider sends the browser back; sets the session cookie for a verified e-mail that has an account.',
        ...publicAccess,
        parameters: [
          { name: 'code', in: 'query', description: 'The authorization code the provider issued.', schema: { type: 'string' } },
          { name: 'state', in: 'query', description: 'The state this site sent the provider.', schema: { type: 'string' } },
          { name: 'error', in: 'query', description: 'Set by the provider when the person cancelled or it refused.', schema: { type: 'string' } },
        ],
        responses: { '303': answer('To /admin/ (or /) with the session cookie, or to /login with an `error` reason.', { headers: { Location: LOCATION, 'Set-Cookie': SET_COOKIE } }), ...errors('404', '429', '500') },
      },
    },
    '/api/v1/auth/session': {
      get: {
        operationId: 'currentSession',
        tags: ['auth'],
        summary: 'Who is signed in',
        description: 'The account of the session cookie sent (admin or member) and when the session expires.',
        ...admin,
        responses: { '200': ok('The session.', ref('SessionAnswer'), { headers: etag }), '304': notModified(), ...errors('401', '429', '500') },
      },
    },
    '/api/v1/admin/submissions': {
      get: {
        operationId: 'listSubmissions',
        tags: ['admin', 'submissions'],
        summary: 'List the review queue',
        description: 'Submissions from the private submission store, newest first, a page at a time; reviewed ones come from its archive. `total` counts every match.',
        ...admin,
        parameters: [
          { name: 'status', in: 'query', description: 'Which submissions.', schema: { type: 'string', enum: ['pending', 'approved', 'rejected', 'all'], default: 'pending' } },
          { name: 'limit', in: 'query', description: 'Page size; above 1000 it is capped at 1000.', schema: { type: 'integer', minimum: 1, default: 200 } },
          { name: 'offset', in: 'query', description: 'How many to skip.', schema: { type: 'integer', minimum: 0, default: 0 } },
        ],
        responses: {
          '200': ok('One page of submissions.', { type: 'object', required: ['success', 'submissions', 'total'], properties: { success: { const: true }, submissions: { type: 'array', items: ref('SubmissionRecord') }, total: { type: 'integer' } } }, { headers: etag }),
          '304': notModified(),
          ...errors('400', '401', '403', '429', '500', '503'),
        },
      },
    },
    '/api/v1/admin/submissions/approve': {
      post: {
        operationId: 'approveSubmission',
        tags: ['admin', 'submissions'],
        summary: 'Approve a submission: publish it as a deal',
        description: 'Publishes a pending submission as a deal (one commit of the deal file, authored by the admin) and marks it approved. `status`, `category`, `title` and `slug` default to `active`, the category matching the submission\'s, the company and value, and a slug of them; an empty string counts as not given.',
        ...admin,
        requestBody: { required: true, content: json(ref('Approval'), examples.approve) },
        responses: {
          '200': ok('Approved.', { type: 'object', required: ['success', 'deal', 'submission'], properties: { success: { const: true }, deal: ref('Deal'), submission: ref('SubmissionRecord') } }),
          ...errors('400', '401', '403', '404', '413', '415', '429', '500', '503'),
        },
      },
    },
    '/api/v1/admin/submissions/reject': {
      post: {
        operationId: 'rejectSubmission',
        tags: ['admin', 'submissions'],
        summary: 'Reject a submission with a reason',
        description: 'Records the rejection and its reason in the private submission store only (nothing reaches the content history).',
        ...admin,
        requestBody: { required: true, content: json(ref('Rejection'), { reject: { summary: 'Rejected with a reason', value: { id: 'sub-4f3c2b1a09e8d7c6', reason: 'The offer is only open to existing customers.' } } }) },
        responses: {
          '200': ok('Rejected.', { type: 'object', required: ['success', 'submission'], properties: { success: { const: true }, submission: ref('SubmissionRecord') } }),
          ...errors('400', '401', '403', '404', '413', '415', '429', '500', '503'),
        },
      },
    },
    '/api/v1/admin/search-gaps': {
      get: {
        operationId: 'listSearchGaps',
        tags: ['admin'],
        summary: 'Searches that found nothing or little',
        description: 'Normalised search text and counts per period, most frequent first: the searches people could not finish (docs/search-gaps.md).',
        ...admin,
        parameters: [
          { name: 'days', in: 'query', description: 'The period in UTC days, today included; above 30 it is capped at 30.', schema: { type: 'integer', minimum: 1, default: 7 } },
          { name: 'limit', in: 'query', description: 'How many queries to list; above 500 it is capped at 500.', schema: { type: 'integer', minimum: 1, default: 50 } },
        ],
        responses: {
          '200': ok('The period\'s counts and its most frequent queries that found nothing (`zero`) or 1 or 2 deals (`low`).', ref('SearchGapReport'), { headers: etag }),
          '304': notModified(),
          ...errors('400', '401', '403', '429', '500', '503'),
        },
      },
    },
    '/api/v1/health': {
      get: {
        operationId: 'health',
        tags: ['health'],
        summary: 'Liveness and what this instance serves',
        description: 'Always 200 while the instance answers: `status` is `ok`, or `degraded` with short `problems` codes, never a 5xx of its own. Catalog version and counts for anyone; content commit, store, content sync, remote, Redis and process details only to a client on the server\'s own machine or an admin session.',
        ...optionalSession,
        responses: {
          '200': ok('The instance is alive.', ref('Health'), { headers: etag, examples: examples.health }),
          '304': notModified(),
          ...errors('429', '500'),
        },
      },
    },
    '/api/v1/hooks/content': {
      post: {
        operationId: 'contentWebhook',
        tags: ['admin'],
        summary: 'Content repository push webhook: pull now',
        description: 'Only with CONTENT_REMOTE and CONTENT_WEBHOOK_SECRET (404 otherwise). Signed like GitHub\'s and Gitea\'s webhooks: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body>`. The body itself is not read: the instance fetches the branch it follows.',
        ...publicAccess,
        parameters: [{ name: 'X-Hub-Signature-256', in: 'header', required: true, description: '`sha256=` and the hex HMAC-SHA256 of the raw body with the shared secret.', schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } }],
        requestBody: { required: false, content: json({ type: 'object', description: 'The push event (not read).' }) },
        responses: {
          '200': ok('Pulled.', { type: 'object', required: ['success', 'commit', 'changed'], properties: { success: { const: true }, commit: { type: 'string' }, changed: { type: 'boolean' } } }),
          ...errors('401', '404', '413', '429', '500', '503'),
        },
      },
    },
    [paths.mcp]: {
      post: {
        operationId: 'mcp',
        tags: ['agents'],
        summary: 'Model Context Protocol (Streamable HTTP)',
        description: 'Stateless MCP server with JSON responses: tools `search_deals`, `get_site_info`, `list_categories`; resources llms.txt, llms-full.txt, sitemap.xml. One JSON-RPC message per POST (no batches), at most 64 KiB. The transport needs `Accept` listing both `application/json` and `text/event-stream` (406 otherwise) and `Content-Type: application/json` (415 otherwise). Only POST: other methods answer 405.',
        ...publicAccess,
        parameters: [
          { name: 'Accept', in: 'header', required: true, description: 'Must list both `application/json` and `text/event-stream` (Streamable HTTP); answers are `application/json`.', schema: { type: 'string', enum: ['application/json, text/event-stream'] } },
          { name: 'Mcp-Protocol-Version', in: 'header', required: false, description: 'The protocol version agreed in `initialize` (such as `2025-06-18`); an unsupported one answers 400.', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: json(ref('JsonRpcRequest'), examples.mcp) },
        responses: {
          '200': answer('The JSON-RPC answer: a `result`, or an `error` (such as -32601 for an unknown method).', { common: MCP_HEADERS, content: json(ref('JsonRpcResponse')) }),
          '202': answer('A notification, accepted (no body).', { common: MCP_HEADERS }),
          '400': answer('Not one valid JSON-RPC message: not JSON (-32700), a batch or nested too deep (-32600), or an unsupported `Mcp-Protocol-Version` (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
          '406': answer('`Accept` does not list both `application/json` and `text/event-stream` (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
          '413': answer('The body is larger than 64 KiB (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
          '415': answer('`Content-Type` is not `application/json` (-32000).', { common: MCP_HEADERS, content: json(ref('JsonRpcError')) }),
          ...errors('429', '500'),
        },
      },
    },
  };

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${site.name} API`,
      version: '1.0.0',
      description: `${site.description}\n\nPublic endpoints need no credential. Every path under \`/api/v1\` is also reachable under \`/api\` (an alias without a version guarantee, answered with \`Link: </api/v1/…>; rel="successor-version"\`). Admin operations need a signed-in admin session cookie, set by the sign-in page; cookie-authenticated writes must come from the site itself (\`Origin\`). The MCP server is at \`${paths.mcp}\`.`,
      contact: { ...(site.contact.email ? { email: site.contact.email } : {}), ...(site.contact.url ? { url: site.contact.url } : {}) },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // The origin alone: paths start with `/`, and a trailing slash would make `//api/v1` of them.
    servers: [{ url: url('/').replace(/\/+$/, ''), description: site.name }],
    tags: TAGS,
    'x-api-versioning': {
      currentVersion: 'v1',
      supportedVersions: ['v1'],
      versionedBasePath: '/api/v1',
      unversionedAliasesSupported: true,
      deprecationNoticeDays: DEPRECATION_NOTICE_DAYS,
      deprecationSignals: ['Deprecation header (RFC 9745, @<unix-seconds>)', 'Sunset header (RFC 8594, HTTP-date)', 'Link rel="deprecation" (policy)', 'Link rel="successor-version" (replacement)'],
      breakingChangePolicy: 'Within a major version only additive changes are made (new endpoints, optional parameters, response fields). Removing or renaming a field, changing a type or a status code needs a new major version such as /api/v2.',
      policyUrl: url(paths.versioningPolicy),
    },
    paths: documentPaths,
    components: {
      schemas: {
        Deal: component(DealSchema),
        DealCategory: {
          type: 'string',
          enum: deals.map((c) => c.slug),
          description: `A deal category slug of this catalog (content/categories.yaml): ${deals.map((c) => `\`${c.slug}\` (${c.name}, ${c.scope})`).join(', ')}.`,
        },
        DealInput: dealInput(),
        DealUpdate: dealUpdate(),
        BulkDeals: {
          type: 'object',
          required: ['deals'],
          description: 'Deals to create or update by slug: an item whose slug exists changes the fields it gives (the others are kept), any other item becomes a new deal.',
          properties: { deals: { type: 'array', minItems: 1, items: ref('DealInput') } },
        },
        DealAnswer: { type: 'object', required: ['success', 'deal'], properties: { success: { const: true }, deal: ref('Deal') } },
        DealList: { type: 'object', required: ['success', 'deals', 'count', 'stats'], properties: { success: { const: true }, deals: { type: 'array', items: ref('Deal') }, count: { type: 'integer' }, stats: ref('DealStats') } },
        DealStats: component(STATS),
        Startup: component(StartupSchema),
        StartupList: { type: 'object', required: ['success', 'startups', 'total'], properties: { success: { const: true }, startups: { type: 'array', items: ref('Startup') }, total: { type: 'integer' } } },
        DealSubmission: emptyMeansLeftOut(withoutDialect(submissionJsonSchema())),
        SubmissionAccepted: { type: 'object', required: ['success', 'id'], properties: { success: { const: true }, id: { type: 'string' }, duplicate: { type: 'boolean', description: 'The same company and link were submitted within a day: this is the earlier id.' } } },
        SubmissionRecord: {
          type: 'object',
          description: 'A stored submission: its fields plus review state. `submitter_email` is removed a set number of days after review (`emailRemovedAt` says when).',
          required: ['id', 'status', 'submittedAt'],
          properties: { id: { type: 'string' }, status: { type: 'string', enum: ['pending', 'approved', 'rejected'] }, submittedAt: { type: 'string' }, emailRemovedAt: { type: 'string' } },
          additionalProperties: true,
        },
        Approval: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string', minLength: 1, description: 'The submission id.' },
            status: { type: 'string', enum: [...DEAL_STATUSES], default: 'active' },
            category: { anyOf: [ref('DealCategory'), { type: 'string', maxLength: 0 }], description: 'Required for a submission in category `other`; otherwise defaults to the deal category matching the submission\'s.' },
            title: { type: 'string', maxLength: 200, description: 'Defaults to the company and the value.' },
            slug: { type: 'string', maxLength: 120, pattern: '^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$', description: 'Defaults to a slug of the company and the value.' },
          },
        },
        Rejection: {
          type: 'object',
          required: ['id', 'reason'],
          properties: {
            id: { type: 'string', minLength: 1, description: 'The submission id.' },
            reason: { type: 'string', minLength: 1, pattern: '\\S', description: 'Why, in a sentence (kept to its first 1,000 characters).' },
          },
        },
        SignIn: {
          type: 'object',
          required: ['email', 'password'],
          properties: { email: { type: 'string', minLength: 1, pattern: '\\S', description: 'Compared without surrounding spaces or case.' }, password: { type: 'string', minLength: 1 } },
        },
        SignOut: { type: 'object', description: 'Optional; a body that is not this object is ignored.', properties: { everywhere: { type: 'boolean', description: 'Also end every other session of this account.' } } },
        SearchGapReport: {
          type: 'object',
          required: ['success', 'days', 'from', 'to', 'searches', 'zero', 'low', 'queries'],
          properties: {
            success: { const: true },
            days: { type: 'integer' },
            from: { type: 'string', format: 'date' },
            to: { type: 'string', format: 'date' },
            searches: { type: 'integer', description: 'Finished searches counted in the period.' },
            zero: { type: 'integer', description: 'Of those, how many found nothing.' },
            low: { type: 'integer', description: 'Of those, how many found 1 or 2 deals.' },
            queries: {
              type: 'array',
              items: { type: 'object', required: ['query', 'zero', 'low', 'lastSeen'], properties: { query: { type: 'string', description: 'Normalised: lower case, no accents or punctuation; e-mail addresses and long numbers replaced.' }, zero: { type: 'integer' }, low: { type: 'integer' }, lastSeen: { type: 'string', format: 'date' } } },
            },
          },
        },
        Health: {
          type: 'object',
          required: ['success', 'status', 'problems', 'catalogVersion', 'deals', 'startups'],
          properties: {
            success: { const: true },
            status: { type: 'string', enum: ['ok', 'degraded'] },
            problems: { type: 'array', items: { type: 'string', enum: [...HEALTH_PROBLEMS] } },
            catalogVersion: { type: 'string' },
            deals: { type: 'integer' },
            startups: { type: 'integer' },
            contentCommit: { type: 'string', description: 'Details (this machine or an admin): the content commit served.' },
            store: { type: 'object', description: 'Details: whether the content store can take writes.', properties: { writable: { type: 'boolean' }, problem: { type: 'string' } } },
            content: {
              type: 'object',
              description: 'Details: content sync.',
              properties: { indexedCommit: { type: 'string' }, remote: { anyOf: [{ type: 'string' }, { type: 'null' }] }, lastPullAt: { type: 'string' }, problem: { type: 'string' } },
            },
            redis: { type: 'string', enum: ['ok', 'down', 'disabled'], description: 'Details: the shared store.' },
            uptimeSeconds: { type: 'integer', description: 'Details.' },
            memoryMb: { type: 'object', description: 'Details.', properties: { rss: { type: 'integer' }, heapUsed: { type: 'integer' } } },
          },
        },
        WriteResult: { type: 'object', required: ['success'], properties: { success: { const: true }, created: { type: 'integer' }, updated: { type: 'integer' }, deleted: { type: 'integer' }, ids: { type: 'array', items: { type: 'string' } }, slugs: { type: 'array', items: { type: 'string' } } } },
        SessionAnswer: { type: 'object', required: ['success', 'user'], properties: { success: { const: true }, user: { type: 'object', properties: { email: { type: 'string' }, role: { type: 'string', enum: ['admin', 'member'] } } }, expiresAt: { type: 'string' } } },
        JsonRpcRequest: {
          type: 'object',
          description: 'One JSON-RPC 2.0 request (with `id`) or notification (without), such as `initialize`, `tools/list`, `tools/call`, `resources/read`.',
          required: ['jsonrpc', 'method'],
          properties: { jsonrpc: { const: '2.0' }, id: ref('JsonRpcId'), method: { type: 'string', minLength: 1 }, params: { type: 'object' } },
        },
        JsonRpcResponse: {
          type: 'object',
          required: ['jsonrpc', 'id'],
          properties: { jsonrpc: { const: '2.0' }, id: ref('JsonRpcId'), result: { type: 'object' }, error: ref('JsonRpcErrorObject') },
          oneOf: requiring(['result', 'error']),
        },
        JsonRpcError: {
          type: 'object',
          description: 'A refusal before any message was read: `id` is null.',
          required: ['jsonrpc', 'error', 'id'],
          properties: { jsonrpc: { const: '2.0' }, error: ref('JsonRpcErrorObject'), id: { anyOf: [ref('JsonRpcId'), { type: 'null' }] } },
        },
        JsonRpcId: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        JsonRpcErrorObject: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
        Error: component(ERROR),
      },
      responses: Object.fromEntries(Object.keys(ERROR_STATUSES).map((status) => [`E${status}`, errorResponse(status)])),
      headers: Object.fromEntries(Object.entries(HEADERS).filter(([name]) => deprecated > 0 || !LIFECYCLE_HEADERS.includes(name))),
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Admin browser session, set by signing in on the site (HTTP-only, SameSite=Lax; over HTTPS Secure and named `__Host-deals_session`). No credential can be issued to agents.' },
      },
    },
  };

  /** A new deal: the fields the server does not fill are required; `category` is one of this catalog's. */
  function dealInput(): Json {
    const schema = dealFields(component(DealSchema.partial(), 'input'));
    return {
      ...schema,
      required: INPUT_REQUIRED.filter((name) => !FILLED_ON_CREATE.includes(name)),
      description: '`title`, `provider`, `category` and `applicationUrl` are needed; `id`, `slug` (from the title), `status` (`active`), flags (`false`) and `lastUpdated` (today) are filled when left out.',
    };
  }

  /** A change: `id` or `slug` names the deal; `null` removes a field the deal may go without. */
  function dealUpdate(): Json {
    const schema = dealFields(component(DealSchema.partial(), 'input'));
    const properties = schema.properties as Record<string, Json>;
    return {
      ...schema,
      properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, INPUT_REQUIRED.includes(name) ? property : { anyOf: [property, { type: 'null' }] }])),
      anyOf: requiring(['id', 'slug']),
      description: '`id` and/or `slug` name the deal (one is required); every other field given replaces it; `null` removes an optional field.',
    };
  }

  /** Deal properties as the server checks them: `category` one of this catalog's, text not blank. */
  function dealFields(schema: Json): Json {
    const properties = Object.fromEntries(Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => [name, name === 'category' ? ref('DealCategory') : notBlank(property)]));
    return { ...schema, properties };
  }
}

// --- internal ---

/** Fields a stored deal must have (input side: defaulted flags are not among them). */
const INPUT_REQUIRED = (component(DealSchema, 'input').required ?? []) as string[];
/** Fields the server fills when a new deal leaves them out (admin-deals.ts `newDeal`, `slugFor`). */
const FILLED_ON_CREATE = ['id', 'slug', 'status'];

/**
 * Deal text fields are trimmed before their length is checked (fields.ts `text()`): a string of
 * spaces is refused, so a text with a minimum length needs a non-space character. Strings with a
 * pattern or format of their own (slugs, ids, dates, links) are left as they are.
 */
function notBlank(schema: Json): Json {
  if (schema.type === 'array' && schema.items) return { ...schema, items: notBlank(schema.items as Json) };
  if (schema.type === 'string' && typeof schema.minLength === 'number' && schema.minLength > 0 && !schema.pattern && !schema.format && !schema.enum) return { ...schema, pattern: '\\S' };
  return schema;
}

/**
 * A request object schema as the server reads bodies against it (http/request-body.ts): an empty
 * string in a field it does not require is that field left out, in JSON and forms alike, so
 * `""` is accepted there whatever the field's own rule.
 */
function emptyMeansLeftOut(schema: Json): Json {
  const required = (schema.required ?? []) as string[];
  const own = schema.properties as Record<string, Json>;
  const properties = Object.entries(own).map(([name, property]) => [name, required.includes(name) ? property : { anyOf: [property, { const: '', description: 'Empty: the field left out.' }] }]);
  // A condition on a field's default value (`if` redemption_method is `link`) holds for an empty one too.
  const condition = schema.if as { properties?: Record<string, Json> } | undefined;
  const conditions = Object.entries(condition?.properties ?? {}).map(([name, test]) => [name, 'const' in test && own[name]?.default === test.const && !required.includes(name) ? { enum: [test.const, ''] } : test]);
  return { ...schema, properties: Object.fromEntries(properties), ...(condition ? { if: { ...condition, properties: Object.fromEntries(conditions) } } : {}) };
}

/** Branches for `anyOf`/`oneOf`, each requiring one of `names` (and naming it, as ajv's strict mode asks). */
function requiring(names: readonly string[]): Json[] {
  return names.map((name) => ({ required: [name], properties: { [name]: true } }));
}

function parameters(table: Record<string, QueryParam>): Json[] {
  return Object.entries(table).map(([name, param]) => ({
    name,
    in: 'query',
    required: false,
    description: param.description,
    schema: param.openapi ?? component(param.schema as z.ZodType, 'input'),
  }));
}

/** The same responses with more headers (a `$ref`'d error response is inlined to carry them). */
function withHeaders(responses: Json, names: readonly string[]): Json {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const plain = typeof (response as Json).$ref === 'string' ? errorResponse(status) : (response as Json);
      return [status, { ...plain, headers: { ...(plain.headers as Json), ...headerRefs(names) } }];
    }),
  );
}

/**
 * Examples made of this catalog, answered by the functions the API answers with: a list and a
 * lookup of its first deal, a listing, request bodies that name its categories. Empty parts of a
 * catalog give no example.
 */
function catalogExamples(catalog: Catalog) {
  const parse = (answer: { body: Uint8Array }) => JSON.parse(new TextDecoder().decode(answer.body)) as Json;
  const category = catalog.categories.deals.find((c) => c.scope === 'deals') ?? catalog.categories.deals[0];
  const list = catalog.deals.length > 0 ? parse(dealsAnswer(catalog, new URLSearchParams('limit=1'))) : undefined;
  const first = (list?.deals as Json[] | undefined)?.[0] as { id: string; slug: string } | undefined;
  const newDeal = {
    title: 'Acme Cloud: $5,000 in credits for startups',
    provider: 'Acme Cloud',
    category: category?.slug,
    applicationUrl: 'https://acme-cloud.example/startups',
    value: '$5,000 in credits',
    shortDescription: 'Cloud credits for pre-seed and seed startups, valid for 12 months.',
    tags: ['cloud', 'credits'],
    eligibility: ['Raised less than $2M', 'Founded in the last 5 years'],
  };
  return {
    dealId: first?.id,
    dealSlug: first?.slug,
    deals: first && list
      ? {
          list: { summary: '`GET /api/v1/deals?limit=1`', value: list },
          lookup: { summary: `\`GET /api/v1/deals?slug=${first.slug}\``, value: parse(dealsAnswer(catalog, new URLSearchParams({ slug: first.slug }))) },
        }
      : undefined,
    startups: startupExample(catalog),
    createDeal: category
      ? {
          single: { summary: 'One new deal (slug, id, status, flags and date filled)', value: newDeal },
          bulk: { summary: 'Bulk upsert by slug', value: { deals: [{ ...newDeal, slug: 'acme-cloud-credits' }] } },
        }
      : undefined,
    updateDeal: first ? { change: { summary: 'Mark a deal limited and remove its time to apply', value: { id: first.id, status: 'limited', timeToApply: null } } } : undefined,
    submitDeal: {
      submission: {
        summary: 'A discount with a redemption link',
        value: {
          company_name: 'Acme Analytics',
          website_url: 'https://acme-analytics.example',
          benefit_description: '50% off the Growth plan for the first year for startups under two years old.',
          category: 'saas',
          deal_value: '50% off for 12 months',
          redemption_method: 'link',
          redemption_link: 'https://acme-analytics.example/startups',
          submitter_email: 'founder@acme-analytics.example',
        },
      },
    },
    approve: category ? { approve: { summary: 'Publish as an active deal in a chosen category', value: { id: 'sub-4f3c2b1a09e8d7c6', status: 'active', category: category.slug } } } : undefined,
    health: {
      ok: { summary: 'All is well', value: { success: true, status: 'ok', problems: [], catalogVersion: catalog.version, deals: catalog.deals.length, startups: catalog.startups.length } },
      degraded: { summary: 'Serving, but the content store cannot take writes', value: { success: true, status: 'degraded', problems: ['store_unwritable'], catalogVersion: catalog.version, deals: catalog.deals.length, startups: catalog.startups.length } },
    },
    mcp: {
      initialize: { summary: 'Start: agree on a protocol version', value: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example-agent', version: '1.0.0' } } } },
      search: { summary: 'Call the search tool', value: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_deals', arguments: { query: 'cloud credits', limit: 3 } } } },
    },
  };
}

/** A real answer of GET /startups that lists one listing: the first whose name, country and category pick it alone. */
function startupExample(catalog: Catalog): Json | undefined {
  for (const startup of catalog.startups.slice(0, 20)) {
    const query = new URLSearchParams({ search: startup.name, category: startup.category, ...(startup.country ? { country: startup.country } : {}) });
    const answer = JSON.parse(new TextDecoder().decode(startupsAnswer(catalog, query).body)) as { total: number };
    if (answer.total === 1) return { listing: { summary: `\`GET /api/v1/startups?${query}\``, value: answer } };
  }
  return undefined;
}
