/**
 * Public URLs of the site, in one place: pages, API, discovery documents. Everything that
 * links (pages, llms files, sitemap, MCP, agent card, OpenAPI) takes its URLs from here.
 */
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';

/** Absolute URL of a site path, from the site's base URL. */
export function absolute(baseUrl: string, path: string): string {
  return new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
}

export const paths = {
  home: '/',
  deals: '/deals/',
  programs: '/programs/',
  startups: '/startups/',
  submit: '/submit/',
  about: '/about/',
  /** What the site stores about people and for how long; a member's own data is on `/account/privacy/`. */
  privacy: '/privacy/',
  /** Signing in and up: pages for people in a browser (the member area has no agent credential). */
  login: '/login',
  signup: '/signup',
  /** Where a member lands after signing in without a page to come back to: the member dashboard. */
  memberHome: '/account/',
  /** The member's saved deals and startups. */
  memberSaved: '/account/saved/',
  /** The admins' review queue (sign-in needed), linked from notices of new submissions. */
  adminReview: '/admin/submissions/',
  /** The API, MCP and discovery documents, for developers and agents. */
  developers: '/developers/',
  deal: (deal: Pick<Deal, 'slug'>) => `/deals/${deal.slug}/`,
  category: (slug: string) => `/categories/${slug}/`,
  startup: (startup: Pick<Startup, 'slug'>) => `/startups/${startup.slug}/`,
  /** A deal's or startup's own logo, optimised by the build (src/logos/); records without one show a monogram. */
  logo: (kind: 'deals' | 'startups', slug: string) => `/logos/${kind}/${slug}.webp`,
  /** Which records have a logo image: `{ "deals": [slugs], "startups": [slugs] }`. */
  logoIndex: '/logos/index.json',
  api: '/api/v1',
  openapi: '/openapi.json',
  mcp: '/api/mcp',
  /** The A2A agent (JSON-RPC, protocol 1.0); its card is `agentCard`. */
  a2a: '/api/a2a',
  llms: '/llms.txt',
  llmsFull: '/llms-full.txt',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  apiCatalog: '/.well-known/api-catalog',
  agentCard: '/.well-known/agent-card.json',
  health: '/api/v1/health',
  /** What changed in the catalog, from the content's history: JSON, and the Atom feed for feed readers. */
  changes: '/api/v1/changes',
  changesAtom: '/changes.atom',
  /** The developer page's section on the change feed. */
  changesDoc: '/developers/#changes',
  versioningPolicy: '/developers/#versioning',
  /** The developer page's section on the MCP server (its `id="mcp"` heading). */
  mcpDoc: '/developers/#mcp',
} as const;
