/**
 * `/openapi.json`: the OpenAPI 3.1 description of the running service, generated from the
 * schemas the code validates with (zod → JSON Schema), the query-parameter tables, the route
 * lifecycle table and the versioning policy. Nothing in it restates a field list by hand.
 */
import * as z from 'zod';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import { CategoriesFileSchema } from '../../src/schemas/category.ts';
import { DealSchema, DEAL_STATUSES } from '../../src/schemas/deal.ts';
import { DEAL_LIST_PARAMS, STARTUP_LIST_PARAMS, type QueryParam } from '../../src/schemas/query.ts';
import { StartupSchema } from '../../src/schemas/startup.ts';
import { submissionJsonSchema } from '../../src/schemas/submission.ts';
import type { Site } from '../../src/schemas/site.ts';
import { HEALTH_PROBLEMS } from '../api/health.ts';
import { ERROR_CODES } from '../http/errors.ts';
import { DEPRECATION_NOTICE_DAYS, type RouteLifecycle } from '../lifecycle.ts';
import { SESSION_COOKIE } from '../auth/session.ts';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

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

/** Error answers by status, each the SPEC error object. */
const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid input: `validation_error` (a field or parameter), `bad_request` (malformed body), `conflict` (duplicate slug).',
  '401': '`unauthorized`: no valid session.',
  '403': '`forbidden`: not an admin, or a cross-site request.',
  '404': '`not_found`: no deal matches; verify the id or slug.',
  '405': '`method_not_allowed`, with `Allow`.',
  '412': '`conflict`: `If-Match` does not match the deal\'s current ETag.',
  '413': '`bad_request`: the body is too large.',
  '429': '`rate_limited`, with `Retry-After`.',
  '500': '`internal_error`.',
  '503': '`service_unavailable`, with `Retry-After`.',
};

/**
 * @example openApiDocument(site, lifecycle).openapi // '3.1.0'
 */
export function openApiDocument(site: Site, lifecycle: ReadonlyMap<string, RouteLifecycle>): Json {
  const url = (path: string) => absolute(site.baseUrl, path);
  const errors = (...statuses: string[]) => Object.fromEntries(statuses.map((s) => [s, { $ref: `#/components/responses/E${s}` }]));
  const withLifecycle = (path: string, operation: Json): Json => {
    const row = lifecycle.get(path);
    return row ? { ...operation, deprecated: true, 'x-deprecation': { deprecatedAt: row.deprecatedAt, sunsetAt: row.sunsetAt, successor: row.successor } } : operation;
  };
  const admin = { security: [{ sessionCookie: [] }] };
  const ok = (description: string, schema: Json, headers: Json = {}) => ({ description, headers: { 'API-Version': { $ref: '#/components/headers/API-Version' }, ...headers }, content: json(schema) });
  const cached = { ETag: { $ref: '#/components/headers/ETag' }, 'Cache-Control': { schema: { type: 'string' } } };

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${site.name} API`,
      version: '1.0.0',
      description: `${site.description}\n\nPublic endpoints need no credential. Every path under \`/api/v1\` is also reachable under \`/api\` (an alias without a version guarantee, answered with \`Link: </api/v1/…>; rel="successor-version"\`). Admin operations need a signed-in admin session cookie, set by the sign-in page; cookie-authenticated writes must come from the site itself (\`Origin\`). The MCP server is at \`${paths.mcp}\`.`,
      contact: { ...(site.contact.email ? { email: site.contact.email } : {}), ...(site.contact.url ? { url: site.contact.url } : {}) },
    },
    servers: [{ url: url('/') }],
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
    paths: {
      '/api/v1/deals': {
        get: withLifecycle('/deals', {
          operationId: 'listOrSearchDeals',
          summary: 'List, search and filter deals, or look one up by slug or id',
          parameters: [
            ...parameters(DEAL_LIST_PARAMS),
            { name: 'Search-Intent', in: 'header', description: '`incremental`: a search sent while someone is still typing; answered as usual, not counted among finished searches (docs/search-gaps.md).', schema: { type: 'string', enum: ['incremental'] } },
          ],
          responses: {
            '200': ok('A single deal (with `slug` or `id`) or a list.', { oneOf: [ref('DealAnswer'), ref('DealList')] }, cached),
            '304': { description: 'Not modified (`If-None-Match`).' },
            ...errors('400', '404', '429', '500'),
          },
        }),
        post: withLifecycle('/deals', {
          operationId: 'createDeal',
          summary: 'Create one deal (defaults filled) or bulk-upsert deals by slug (all or nothing, one commit)',
          ...admin,
          requestBody: { required: true, content: json({ oneOf: [ref('DealInput'), ref('BulkDeals')] }) },
          responses: { '200': ok('Created (the deal), or bulk upsert processed (the counts).', { anyOf: [ref('DealAnswer'), ref('WriteResult')] }), ...errors('400', '401', '403', '413', '429', '500', '503') },
        }),
        put: withLifecycle('/deals', {
          operationId: 'updateDeal',
          summary: 'Update a deal by id and/or slug (with an id, a new slug renames it and keeps the id)',
          ...admin,
          parameters: [{ name: 'If-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The deal\'s ETag from GET; 412 when it changed since.' }],
          requestBody: { required: true, content: json(ref('DealUpdate')) },
          responses: { '200': ok('Updated.', ref('DealAnswer')), ...errors('400', '401', '403', '404', '412', '429', '500', '503') },
        }),
        delete: withLifecycle('/deals', {
          operationId: 'deleteDeal',
          summary: 'Delete deals by id, slug or a comma-separated list of ids (one commit)',
          ...admin,
          parameters: [
            { name: 'id', in: 'query', schema: { type: 'string' } },
            { name: 'slug', in: 'query', schema: { type: 'string' } },
            { name: 'ids', in: 'query', schema: { type: 'string' }, description: 'Comma-separated ids.' },
            { name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: { '200': ok('Deleted.', ref('WriteResult')), ...errors('400', '401', '403', '404', '412', '429', '500', '503') },
        }),
      },
      '/api/v1/startups': {
        get: withLifecycle('/startups', {
          operationId: 'listStartups',
          summary: 'Filter startups listed for sale',
          parameters: parameters(STARTUP_LIST_PARAMS),
          responses: { '200': ok('Matching listings.', ref('StartupList'), cached), '304': { description: 'Not modified.' }, ...errors('400', '405', '429', '500') },
        }),
      },
      '/api/v1/submit-deal': {
        post: withLifecycle('/submit-deal', {
          operationId: 'submitDeal',
          summary: 'Submit a deal for editorial review (5 accepted per address per hour)',
          requestBody: { required: true, content: { ...json(ref('DealSubmission')), 'application/x-www-form-urlencoded': { schema: ref('DealSubmission') } } },
          responses: {
            '201': ok('Accepted for review: stored durably in the private submission store (no git commit).', ref('SubmissionAccepted'), { 'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' }, RateLimit: { $ref: '#/components/headers/RateLimit' } }),
            '303': { description: 'A plain HTML form post (`application/x-www-form-urlencoded` with `Accept: text/html`): redirect to the thanks page, or back to the form with an `error` code (`required`, `too_short`, `too_long`, `not_allowed`, `invalid_url`, `invalid_email`, `invalid`, `too_many`, `too_large`) and the `field` it names, never text.', headers: { Location: { schema: { type: 'string' } } } },
            ...errors('400', '405', '413', '429', '500', '503'),
          },
        }),
      },
      '/api/v1/auth/login': {
        post: {
          operationId: 'signIn',
          summary: 'Sign in with a local account (sets the session cookie). Form posts get a 303 redirect.',
          requestBody: { required: true, content: json({ type: 'object', required: ['email', 'password'], properties: { email: { type: 'string' }, password: { type: 'string' } } }) },
          responses: { '200': ok('Signed in.', ref('SessionAnswer'), { 'Set-Cookie': { schema: { type: 'string' } } }), '303': { description: 'Form post: redirect.' }, ...errors('400', '401', '403', '429') },
        },
      },
      '/api/v1/auth/logout': {
        post: {
          operationId: 'signOut',
          summary: 'Sign out: the session sent is revoked until it would have expired; `everywhere` ends every session of the account.',
          requestBody: { required: false, content: json({ type: 'object', properties: { everywhere: { type: 'boolean', description: 'Also end every other session of this account.' } } }) },
          responses: { '200': ok('Signed out.', { type: 'object', properties: { success: { const: true } } }), '303': { description: 'Form post: redirect.' }, ...errors('403') },
        },
      },
      '/api/v1/auth/oidc': {
        get: {
          operationId: 'signInWithProvider',
          summary: 'Browser sign-in through the OpenID Connect provider, when one is configured: redirects to it (authorization code flow with PKCE).',
          responses: { '303': { description: 'To the provider, or to /login with an `error` reason.', headers: { Location: { schema: { type: 'string' } } } }, ...errors('404', '429') },
        },
      },
      '/api/v1/auth/oidc/callback': {
        get: {
          operationId: 'providerCallback',
          summary: 'Where the provider sends the browser back; sets the session cookie for a verified e-mail that has an account.',
          responses: { '303': { description: 'To /admin/ (or /) with the session cookie, or to /login with an `error` reason.', headers: { Location: { schema: { type: 'string' } } } }, ...errors('404', '429') },
        },
      },
      '/api/v1/auth/session': { get: { operationId: 'currentSession', summary: 'Who is signed in.', ...admin, responses: { '200': ok('The session.', ref('SessionAnswer')), ...errors('401') } } },
      '/api/v1/admin/submissions': {
        get: {
          operationId: 'listSubmissions',
          summary: 'The review queue (admin), from the private submission store; reviewed ones come from its archive',
          ...admin,
          parameters: [
            { name: 'status', in: 'query', schema: { type: 'string', enum: ['pending', 'approved', 'rejected', 'all'], default: 'pending' } },
            { name: 'limit', in: 'query', description: 'Page size; above 1000 it is capped at 1000.', schema: { type: 'integer', minimum: 1, default: 200 } },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { '200': ok('One page of submissions, newest first; `total` counts every match.', { type: 'object', required: ['success', 'submissions', 'total'], properties: { success: { const: true }, submissions: { type: 'array', items: ref('SubmissionRecord') }, total: { type: 'integer' } } }), ...errors('400', '401', '403', '503') },
        },
      },
      '/api/v1/admin/submissions/approve': {
        post: {
          operationId: 'approveSubmission',
          summary: 'Publish a pending submission as a deal (one commit of the deal file, by the admin) and mark it approved',
          ...admin,
          requestBody: { required: true, content: json({ type: 'object', required: ['id'], properties: { id: { type: 'string' }, status: { type: 'string', enum: [...DEAL_STATUSES] }, category: { type: 'string' }, title: { type: 'string' }, slug: { type: 'string' } } }) },
          responses: { '200': ok('Approved.', { type: 'object', properties: { success: { const: true }, deal: ref('Deal'), submission: ref('SubmissionRecord') } }), ...errors('400', '401', '403', '404', '503') },
        },
      },
      '/api/v1/admin/submissions/reject': {
        post: {
          operationId: 'rejectSubmission',
          summary: 'Reject a pending submission with a reason',
          ...admin,
          requestBody: { required: true, content: json({ type: 'object', required: ['id', 'reason'], properties: { id: { type: 'string' }, reason: { type: 'string' } } }) },
          responses: { '200': ok('Rejected.', { type: 'object', properties: { success: { const: true }, submission: ref('SubmissionRecord') } }), ...errors('400', '401', '403', '404', '503') },
        },
      },
      '/api/v1/admin/search-gaps': {
        get: {
          operationId: 'listSearchGaps',
          summary: 'Searches that found nothing or little (admin): normalised text and counts per period, most frequent first',
          ...admin,
          parameters: [
            { name: 'days', in: 'query', description: 'The period in UTC days, today included; above 30 it is capped at 30.', schema: { type: 'integer', minimum: 1, default: 7 } },
            { name: 'limit', in: 'query', description: 'How many queries to list; above 500 it is capped at 500.', schema: { type: 'integer', minimum: 1, default: 50 } },
          ],
          responses: { '200': ok('The period\'s counts and its most frequent queries that found nothing (`zero`) or 1 or 2 deals (`low`).', ref('SearchGapReport')), ...errors('400', '401', '403', '503') },
        },
      },
      '/api/v1/health': {
        get: {
          operationId: 'health',
          summary: 'Liveness and what this instance serves (`status`: ok or degraded, with short `problems` codes, catalog version and counts). Content commit, store, content sync, remote and Redis details only to a client on the server\'s own machine or an admin session.',
          responses: {
            '200': ok('The instance is alive.', {
              type: 'object',
              required: ['success', 'status'],
              properties: {
                success: { const: true },
                status: { enum: ['ok', 'degraded'] },
                problems: { type: 'array', items: { enum: [...HEALTH_PROBLEMS] } },
                catalogVersion: { type: 'string' },
                deals: { type: 'integer' },
                startups: { type: 'integer' },
              },
            }),
          },
        },
      },
      '/api/v1/hooks/content': {
        post: {
          operationId: 'contentWebhook',
          summary: 'Push webhook of the content repository: pull now (only with CONTENT_REMOTE and CONTENT_WEBHOOK_SECRET). Signed: `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>`.',
          parameters: [{ name: 'X-Hub-Signature-256', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: false, content: json({ type: 'object' }) },
          responses: {
            '200': ok('Pulled.', { type: 'object', properties: { success: { const: true }, commit: { type: 'string' }, changed: { type: 'boolean' } } }),
            ...errors('401', '404', '413', '503'),
          },
        },
      },
      [paths.mcp]: {
        post: {
          operationId: 'mcp',
          summary: 'Model Context Protocol over Streamable HTTP (stateless, JSON responses): tools search_deals, get_site_info, list_categories; resources llms.txt, llms-full.txt, sitemap.xml',
          requestBody: { required: true, content: json({ type: 'object', description: 'A JSON-RPC 2.0 message.' }) },
          responses: { '200': { description: 'JSON-RPC answer.', content: json({ type: 'object' }) }, '202': { description: 'Notification accepted.' }, ...errors('405') },
        },
      },
    },
    components: {
      schemas: {
        Deal: component(DealSchema),
        DealInput: { ...component(DealSchema.partial(), 'input'), description: 'A partial deal: `title` (or `slug`), `provider`, `category` and `applicationUrl` are needed; `id`, `slug`, `status` (`active`), flags (`false`) and `lastUpdated` (today) are filled.' },
        DealUpdate: { ...nullableFields(component(DealSchema.partial(), 'input'), ['id', 'slug']), description: '`id` and/or `slug` name the deal; every other field given replaces it; `null` removes an optional field.' },
        BulkDeals: { type: 'object', required: ['deals'], properties: { deals: { type: 'array', minItems: 1, items: ref('DealInput') } } },
        DealAnswer: { type: 'object', required: ['success', 'deal'], properties: { success: { const: true }, deal: ref('Deal') } },
        DealList: { type: 'object', required: ['success', 'deals', 'count', 'stats'], properties: { success: { const: true }, deals: { type: 'array', items: ref('Deal') }, count: { type: 'integer' }, stats: ref('DealStats') } },
        DealStats: component(STATS),
        Startup: component(StartupSchema),
        StartupList: { type: 'object', required: ['success', 'startups', 'total'], properties: { success: { const: true }, startups: { type: 'array', items: ref('Startup') }, total: { type: 'integer' } } },
        DealSubmission: withoutDialect(submissionJsonSchema()),
        SubmissionAccepted: { type: 'object', required: ['success', 'id'], properties: { success: { const: true }, id: { type: 'string' }, duplicate: { type: 'boolean', description: 'The same company and link were submitted within a day: this is the earlier id.' } } },
        SubmissionRecord: {
          type: 'object',
          description: 'A stored submission: its fields plus review state. `submitter_email` is removed a set number of days after review (`emailRemovedAt` says when).',
          required: ['id', 'status', 'submittedAt'],
          properties: { id: { type: 'string' }, status: { type: 'string', enum: ['pending', 'approved', 'rejected'] }, submittedAt: { type: 'string' }, emailRemovedAt: { type: 'string' } },
          additionalProperties: true,
        },
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
        WriteResult: { type: 'object', required: ['success'], properties: { success: { const: true }, created: { type: 'integer' }, updated: { type: 'integer' }, deleted: { type: 'integer' }, ids: { type: 'array', items: { type: 'string' } }, slugs: { type: 'array', items: { type: 'string' } } } },
        SessionAnswer: { type: 'object', required: ['success', 'user'], properties: { success: { const: true }, user: { type: 'object', properties: { email: { type: 'string' }, role: { type: 'string', enum: ['admin', 'member'] } } }, expiresAt: { type: 'string' } } },
        Categories: component(CategoriesFileSchema),
        Error: component(ERROR),
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([status, description]) => [
          `E${status}`,
          {
            description,
            headers: {
              'API-Version': { $ref: '#/components/headers/API-Version' },
              ...(status === '405' ? { Allow: { schema: { type: 'string' } } } : {}),
              ...(status === '429' || status === '503' ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
            },
            content: json(ref('Error')),
          },
        ]),
      ),
      headers: {
        'API-Version': { description: 'The API version that answered (`v1`).', schema: { type: 'string', const: 'v1' } },
        ETag: { description: 'Strong validator; send it back in `If-None-Match` (304) or `If-Match` (writes).', schema: { type: 'string' } },
        Link: { description: '`successor-version` on `/api` aliases and deprecated routes; `deprecation` on deprecated routes.', schema: { type: 'string' } },
        Deprecation: { description: 'RFC 9745: `@<unix seconds>` on deprecated routes.', schema: { type: 'string' } },
        Sunset: { description: 'RFC 8594: HTTP date after which a deprecated route may stop answering.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
        'RateLimit-Policy': { description: 'draft-ietf-httpapi-ratelimit-headers: `"name";q=<quota>;w=<window seconds>`.', schema: { type: 'string' } },
        RateLimit: { description: 'draft-ietf-httpapi-ratelimit-headers: `"name";r=<remaining>;t=<seconds>`.', schema: { type: 'string' } },
      },
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Admin browser session, set by signing in on the site (HTTP-only, SameSite=Lax; over HTTPS Secure and named `__Host-deals_session`). No credential can be issued to agents.' },
      },
    },
  };
}

// --- internal ---

/** The same object schema with every property but `except` also accepting `null`. */
function nullableFields(schema: Json, except: readonly string[]): Json {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, except.includes(name) ? property : { anyOf: [property, { type: 'null' }] }])),
  };
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
