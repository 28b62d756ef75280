/**
 * Discovery documents for agents: the RFC 9727 API catalog, the A2A agent card, and the
 * OAuth/OIDC documents of SPEC "Authentication" 6. Each says only what really works: this
 * service signs people (editors and members) in with its own session cookie, accepts no bearer
 * tokens and issues no tokens; agents use the JSON API, MCP or the A2A endpoint
 * (functions/a2a/), and send their person to the sign-in page for the member area
 * (src/agents/member-area.ts words it once for every document).
 */
import { memberAreaNote } from '../../src/agents/member-area.ts';
import { absolute, paths } from '../../src/agents/site-urls.ts';
import type { Site } from '../../src/schemas/site.ts';

export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * RFC 9727 linkset: the API, its OpenAPI description, docs, policy and status; the change
 * feed with its Atom form; and the MCP server with its documentation.
 *
 * The MCP context has no `service-desc` (RFC 8631: a machine-readable description of the
 * service). Nothing of that kind exists for it: the agent card describes the agent's skills, not
 * this endpoint, and the OpenAPI entry for `/api/mcp` only says it takes a JSON-RPC object by
 * POST. An MCP server describes itself in its own protocol (`initialize`, `tools/list`,
 * `resources/list`), so the honest link is `service-doc`: the human page's section on the MCP
 * server (its URL, transport, tools and resources).
 */
export function apiCatalog(site: Site): object {
  const url = (path: string) => absolute(site.baseUrl, path);
  return {
    linkset: [
      {
        anchor: url(paths.api),
        'service-desc': [{ href: url(paths.openapi), type: 'application/json', title: 'OpenAPI 3.1 description' }],
        'service-doc': [
          { href: url(paths.developers), type: 'text/html', title: 'About the API' },
          { href: url(paths.llms), type: 'text/plain', title: 'llms.txt' },
          { href: url(`${paths.developers}#authentication`), type: 'text/html', title: `Authentication: public data needs none. ${memberAreaNote(site.baseUrl)}` },
        ],
        'service-meta': [{ href: url(paths.versioningPolicy), type: 'text/html', title: 'Versioning and deprecation policy' }],
        status: [{ href: url(paths.health), type: 'application/json' }],
      },
      {
        // The change feed, described with the rest of the API; its Atom form for feed readers.
        anchor: url(paths.changes),
        'service-desc': [{ href: url(paths.openapi), type: 'application/json', title: 'OpenAPI 3.1 description (operation listChanges)' }],
        'service-doc': [{ href: url(paths.changesDoc), type: 'text/html', title: 'The change feed' }],
        alternate: [{ href: url(paths.changesAtom), type: 'application/atom+xml', title: 'The latest changes as an Atom feed' }],
      },
      {
        anchor: url(paths.mcp),
        'service-doc': [{ href: url(paths.mcpDoc), type: 'text/html', title: 'MCP server: transport, tools and resources' }],
      },
    ],
  };
}

/**
 * A2A agent card (protocol 1.0 field names). The one interface is the A2A endpoint
 * (functions/a2a/handler.ts), JSON-RPC, protocol 1.0 only (no 0.3 fields: nothing here speaks
 * 0.3). Each skill says where it really is: a message runs `search_deals` and `search_startups`
 * (functions/a2a/executor.ts); `submit_deal` is the JSON API's alone.
 */
export function agentCard(site: Site): object {
  const url = (path: string) => absolute(site.baseUrl, path);
  return {
    name: site.name,
    description: `${site.description} An A2A message (SendMessage, answered at once with a message: a short text and a data part with the records) searches deals and programs, or startups for sale. The same data is in the public JSON API (${url(paths.api)}, OpenAPI at ${url(paths.openapi)}) and the MCP server (${url(paths.mcp)}, Streamable HTTP). Read-only; no credentials needed. ${memberAreaNote(site.baseUrl)}`,
    version: '1.0.0',
    supportedInterfaces: [{ url: url(paths.a2a), protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    provider: { organization: site.name, url: url('/') },
    documentationUrl: url(paths.developers),
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/markdown'],
    skills: [
      {
        id: 'search_deals',
        name: 'Search deals',
        description: `Search and filter verified startup deals, credits and programs. A2A: a text part ("cloud credits for a pre-seed startup") or a data part of filters as the API names them ({"search": "aws", "category": "cloud-credits", "limit": 5}); at most 10 deals unless limit says otherwise (up to 50). Also GET ${url(`${paths.api}/deals`)}?search=… and the MCP tools search_deals and get_deal.`,
        tags: ['deals', 'credits', 'startups', 'search'],
        examples: ['aws credits', 'accelerators with no equity', 'legal discounts for startups', 'cloud credits for a pre-seed startup'],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['application/json', 'text/markdown'],
      },
      {
        id: 'search_startups',
        name: 'Search startups for sale',
        description: `Filter startups listed for sale by category, country, revenue, source and text. A2A: a text part starting with "startups:" ("startups: saas") or a data part {"skill": "search_startups", "category": "saas", "minRevenue": 100000}. Also GET ${url(`${paths.api}/startups`)} and the MCP tool search_startups.`,
        tags: ['startups', 'acquisitions', 'marketplace'],
        examples: ['startups: saas', 'SaaS businesses for sale in the US with over $100k revenue'],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['application/json', 'text/markdown'],
      },
      {
        id: 'submit_deal',
        name: 'Submit a deal',
        description: `Submit a deal for editorial review, no credential needed: POST ${url(`${paths.api}/submit-deal`)} (5 per hour per address). Not an A2A message: only the JSON API takes submissions.`,
        tags: ['submission', 'deals'],
        inputModes: ['application/json'],
        outputModes: ['application/json'],
      },
    ],
  };
}

/** RFC 9728: the API is a resource that accepts a session cookie, never a bearer token. */
export function protectedResourceMetadata(site: Site): object {
  return {
    resource: absolute(site.baseUrl, paths.api),
    resource_name: `${site.name} API`,
    bearer_methods_supported: [],
    scopes_supported: [],
    resource_documentation: absolute(site.baseUrl, `${paths.developers}#authentication`),
  };
}

/**
 * RFC 8414 / OpenID Connect Discovery: this service is not an authorization server or an
 * OpenID provider. The documents name this origin as issuer (so they validate as ours), list no
 * endpoints, grant types or response types, and point to the human sign-in documentation. When
 * admins sign in through an external OpenID provider, the note names it: it is that provider's
 * own discovery document that describes its endpoints, not this one.
 */
export function authorizationServerMetadata(site: Site, signInProvider?: string): object {
  const origin = new URL(site.baseUrl).origin;
  return {
    issuer: origin,
    response_types_supported: [],
    grant_types_supported: [],
    scopes_supported: [],
    token_endpoint_auth_methods_supported: [],
    jwks_uri: `${origin}/.well-known/jwks.json`,
    service_documentation: absolute(site.baseUrl, `${paths.developers}#authentication`),
    'x-note':
      `No OAuth or OpenID Connect flow is offered: public data needs no credential, and people (editors and members) sign in with a browser session on the site. No token is ever issued to agents. ${memberAreaNote(site.baseUrl)}` +
      (signInProvider
        ? ` People may sign in and sign up through the OpenID provider ${signInProvider} (see its own /.well-known/openid-configuration); the site accepts only its own session cookie, never that provider's tokens.`
        : ''),
  };
}

/** RFC 7517: the service signs no tokens, so it publishes no keys. */
export function jsonWebKeySet(): object {
  return { keys: [] };
}
