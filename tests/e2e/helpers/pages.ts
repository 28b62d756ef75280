/**
 * One example URL per page type of the site, resolved from the running catalog (so the examples
 * follow the content), for the checks that run on every page type.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getJson, type DealList, type StartupList } from './browser.ts';
import { e2e } from './context.ts';

export interface PageType {
  name: string;
  /** Path (with query) of an example page of this type. */
  path: () => Promise<string>;
  /** HTTP status the page is served with. */
  status: number;
  /** Path the canonical URL must name; undefined when the page has no canonical address of its own (404). */
  canonicalPath?: (path: string) => string;
}

const same = (path: string) => path;

async function firstDealSlug(): Promise<string> {
  const deal = (await getJson<DealList>(e2e().url('/api/v1/deals?limit=1'))).deals[0];
  if (!deal) throw new Error('the catalog has no deals');
  return deal.slug;
}

export const PAGE_TYPES: PageType[] = [
  { name: 'home', path: async () => '/', status: 200, canonicalPath: same },
  { name: 'deals index', path: async () => '/deals/', status: 200, canonicalPath: same },
  { name: 'programs index', path: async () => '/programs/', status: 200, canonicalPath: same },
  {
    name: 'category',
    path: async () => {
      const deal = (await getJson<DealList>(e2e().url('/api/v1/deals?limit=1'))).deals[0];
      if (!deal) throw new Error('the catalog has no deals');
      return `/categories/${deal.category}/`;
    },
    status: 200,
    canonicalPath: same,
  },
  { name: 'deal', path: async () => `/deals/${await firstDealSlug()}/`, status: 200, canonicalPath: same },
  { name: 'startups index', path: async () => '/startups/', status: 200, canonicalPath: same },
  {
    name: 'startup',
    path: async () => {
      const startup = (await getJson<StartupList>(e2e().url('/api/v1/startups'))).startups[0];
      if (!startup) throw new Error('the catalog has no startups');
      return `/startups/${startup.slug}/`;
    },
    status: 200,
    canonicalPath: same,
  },
  { name: 'submit', path: async () => '/submit/', status: 200, canonicalPath: same },
  { name: 'submit thanks', path: async () => '/submit/thanks/', status: 200, canonicalPath: same },
  { name: 'about', path: async () => '/about/', status: 200, canonicalPath: same },
  { name: 'privacy', path: async () => '/privacy/', status: 200, canonicalPath: same },
  { name: 'developers (API)', path: async () => '/developers/', status: 200, canonicalPath: same },
  { name: 'deal search results', path: async () => '/deals/search/?search=cloud', status: 200, canonicalPath: () => '/deals/search/' },
  { name: 'startup search results', path: async () => '/startups/search/?category=saas', status: 200, canonicalPath: () => '/startups/search/' },
  { name: 'login', path: async () => '/login/', status: 200, canonicalPath: same },
  { name: 'not found (404)', path: async () => '/no-such-page-e2e/', status: 404 },
];

/**
 * The site's public base URL, which canonical and og:url addresses use: `baseUrl` from
 * content/site.yaml, or the listen address the build put in its place (the starter names none).
 */
export function siteBaseUrl(): string {
  const catalog = JSON.parse(readFileSync(join(e2e().site.work, 'generated', 'catalog.json'), 'utf8')) as { site?: { baseUrl?: string } };
  if (!catalog.site?.baseUrl) throw new Error('the built catalog has no site.baseUrl');
  return catalog.site.baseUrl;
}
