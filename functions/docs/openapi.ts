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
import { memberAreaNote } from '../../src/agents/member-area.ts';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { ANSWER_SCHEMAS } from '../../src/schemas/answers.ts';
import { REQUEST_SCHEMAS } from '../../src/schemas/requests.ts';
import { DealSchema } from '../../src/schemas/deal.ts';
import { StartupSchema } from '../../src/schemas/startup.ts';
import { submissionJsonSchema } from '../../src/schemas/submission.ts';
import { SESSION_COOKIE } from '../auth/session.ts';
import type { ApiRoute } from '../http/routes.ts';
import { DEPRECATION_NOTICE_DAYS, type RouteLifecycle } from '../http/lifecycle.ts';
import { catalogExamples } from './examples.ts';
import { catalogSlugs, recordInput, recordUpdate, type RecordBodies } from './record-bodies.ts';
import { errorResponse, schemaComponents, ERROR_STATUSES, HEADERS, LIFECYCLE_HEADERS, ref, requiring, TAGS, withHeaders, withoutDialect, type Json } from './openapi-kit.ts';

/** What `security` says for each kind of access. */
const SECURITY = {
  public: [],
  admin: [{ sessionCookie: [] }],
  member: [{ sessionCookie: [] }],
  /** Works without a session; a session changes what it does (health details, which session ends). */
  optional: [{}, { sessionCookie: [] }],
};

/**
 * The document for the catalog served and the route table.
 * @example openApiDocument(catalog, lifecycle, API_ROUTES).openapi // '3.1.0'
 */
export function openApiDocument(catalog: Catalog, lifecycle: ReadonlyMap<string, RouteLifecycle>, routes: readonly ApiRoute[]): Json {
  const { site } = catalog;
  const url = (path: string) => absolute(site.baseUrl, path);
  const examples = catalogExamples(catalog);
  let deprecated = 0;
  const documentPaths: Record<string, Json> = {};
  for (const route of routes) {
    const row = lifecycle.get(route.path);
    if (row) deprecated++;
    const operations: Json = {};
    for (const [method, operation] of Object.entries(route.methods)) {
      const { operationId, tags, summary, description, ...rest } = operation.doc(examples);
      const documented: Json = { operationId, tags, summary, description, security: SECURITY[operation.access], ...rest };
      operations[method.toLowerCase()] = row
        ? {
            ...documented,
            responses: withHeaders(documented.responses as Json, LIFECYCLE_HEADERS),
            deprecated: true,
            'x-deprecation': { deprecatedAt: row.deprecatedAt, sunsetAt: row.sunsetAt, successor: row.successor },
          }
        : documented;
    }
    documentPaths[route.unversioned ? `/api${route.path}` : `/api/v1${route.path}`] = operations;
  }

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${site.name} API`,
      version: '1.0.0',
      description: `${site.description}\n\nPublic endpoints need no credential. Every path under \`/api/v1\` is also reachable under \`/api\` (an alias without a version guarantee, answered with \`Link: </api/v1/…>; rel="successor-version"\`). Admin operations need a signed-in admin's session cookie, set by the sign-in page; cookie-authenticated writes must come from the site itself (\`Origin\`). ${memberAreaNote(site.baseUrl)} The MCP server is at \`${paths.mcp}\`.`,
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
      breakingChangePolicy:
        'Within a major version only additive changes are made (new endpoints, optional parameters, response fields). Removing or renaming a field, changing a type or a status code needs a new major version such as /api/v2.',
      policyUrl: url(paths.versioningPolicy),
    },
    paths: documentPaths,
    components: {
      schemas: {
        ...schemaComponents(ANSWER_SCHEMAS, 'output'),
        DealCategory: catalogSlugs('deal category', catalog.categories.deals),
        StartupCategory: catalogSlugs('startup category', catalog.categories.startups),
        StartupSource: catalogSlugs('source (marketplace)', catalog.categories.sources),
        DealInput: recordInput(
          DEAL_BODIES,
          '`title`, `provider`, `category` and `applicationUrl` are needed; `id`, `slug` (from the title), `status` (`active`), flags (`false`) and `lastUpdated` (today) are filled when left out.',
        ),
        DealUpdate: recordUpdate(DEAL_BODIES, '`id` and/or `slug` name the deal (one is required); every other field given replaces it; `null` removes an optional field.'),
        StartupInput: recordInput(
          STARTUP_BODIES,
          '`name` and `category` are needed; `id`, `slug` (from the name), `featured` (`false`), `forSale` (`true`) and `lastUpdated` (today) are filled when left out.',
        ),
        StartupUpdate: recordUpdate(STARTUP_BODIES, '`id` and/or `slug` name the listing (one is required); every other field given replaces it; `null` removes an optional field.'),
        BulkDeals: {
          type: 'object',
          required: ['deals'],
          description: 'Deals to create or update by slug: an item whose slug exists changes the fields it gives (the others are kept), any other item becomes a new deal.',
          properties: { deals: { type: 'array', minItems: 1, items: ref('DealInput') } },
        },
        DealSubmission: emptyMeansLeftOut(withoutDialect(submissionJsonSchema())),
        ...requestComponents(),
        JsonRpcRequest: {
          type: 'object',
          description: 'One JSON-RPC 2.0 request (with `id`) or notification (without), such as `initialize`, `tools/list`, `tools/call`, `resources/read` (MCP) or `SendMessage` (A2A).',
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
      },
      responses: Object.fromEntries(Object.keys(ERROR_STATUSES).map((status) => [`E${status}`, errorResponse(status)])),
      headers: Object.fromEntries(Object.entries(HEADERS).filter(([name]) => deprecated > 0 || !LIFECYCLE_HEADERS.includes(name))),
      securitySchemes: {
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            'The browser session of a signed-in admin or member, set by signing in on the site (/login): HTTP-only, SameSite=Lax, same-origin only; over HTTPS Secure and named `__Host-deals_session`. No credential can be issued to agents: they send their person to /login.',
        },
      },
    },
  };

  /** The small request bodies; an approval's `category` is one of this catalog's (or empty: not given); a revert names its record by `id` or `slug`. */
  function requestComponents(): Record<string, Json> {
    const bodies = schemaComponents(REQUEST_SCHEMAS, 'input');
    const approval = bodies.Approval as Json;
    const properties = approval.properties as Record<string, Json>;
    const category = properties.category as Json;
    properties.category = { anyOf: [ref('DealCategory'), { type: 'string', maxLength: 0 }], description: category.description };
    properties.deal = { allOf: [ref('DealInput')], description: (properties.deal as Json).description };
    bodies.Revert = { ...(bodies.Revert as Json), anyOf: requiring(['id', 'slug']) };
    return bodies;
  }
}

// --- internal ---

const DEAL_BODIES: RecordBodies = { schema: DealSchema, filledOnCreate: ['id', 'slug', 'status'], catalogValues: { category: 'DealCategory' } };
const STARTUP_BODIES: RecordBodies = { schema: StartupSchema, filledOnCreate: ['id', 'slug'], catalogValues: { category: 'StartupCategory', source: 'StartupSource' } };

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
  const conditions = Object.entries(condition?.properties ?? {}).map(([name, test]) => [
    name,
    'const' in test && own[name]?.default === test.const && !required.includes(name) ? { enum: [test.const, ''] } : test,
  ]);
  return { ...schema, properties: Object.fromEntries(properties), ...(condition ? { if: { ...condition, properties: Object.fromEntries(conditions) } } : {}) };
}
