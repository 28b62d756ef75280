/**
 * Catalog pages after the catalog changed. The site is built from the catalog the server
 * started with; the API follows every write and pull at once, and so do the pages: a page
 * whose content changed since the build is rendered live from the current catalog (its built
 * file is out of date), and the page of a record that is gone is no longer served.
 * - Deal pages: only the deals whose record changed (a write replaces only the records it
 *   changes, so record identity tells).
 * - Lists (home, deals, programs, startups, categories): whenever the catalog's version differs.
 * - Startup pages: once the listings were replaced (only a pull of content changes them).
 * - Every catalog page while any logo differs from the build (live-logos.ts): a record's page
 *   shows its own logo and its related records' cards, a list every card's.
 * Other pages (about, submit, login, admin) do not depend on the catalog.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { LivePage } from '../../src/live-page.ts';
import { once } from '../../src/catalog/once.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { Startup } from '../../src/schemas/startup.ts';
import type { LiveLogos } from './live-logos.ts';

/** What the built site was made from: enough to tell which pages are out of date. */
export interface BuiltSite {
  version: string;
  /**
   * The slug each built deal had (a write replaces only the records it changes), held weakly: a
   * built deal reads its description from the catalog file it was loaded from (text-in-file.ts),
   * so holding the deals would keep that file after a full rebuild replaced every record.
   */
  deals: WeakMap<Deal, string>;
  /** The built deals' slugs: a slug that had no page and has none now has not changed. */
  dealSlugs: ReadonlySet<string>;
  /** The built listings, held weakly: when a pull replaced them they are collected, and every listing page is live. */
  startups: WeakRef<readonly Startup[]>;
}

/** What pages need of the logos changed since the build (live-logos.ts). */
export type ChangedLogos = Pick<LiveLogos, 'stamp'>;

export type PageChange = { kind: 'live'; page: LivePage; path: string; markdown: boolean } | { kind: 'gone' };

/** Where Astro renders a live page (src/pages/live/page.astro). */
export const LIVE_PAGE_ROUTE = '/live/page/';

/**
 * Remember what the site is built from (the catalog the server starts with). The deals' slugs and
 * the listings are taken when first needed (a page asked for after a change), or by `settle`,
 * which the process calls before it replaces that catalog, so that it is not held after: taking
 * them cost 77 ms of the start at 50,000 deals (docs/performance.md, fifteenth sitting), and
 * reading the records then would parse them before the first answer (records-in-file.ts).
 * @example const site = builtSite(catalog); site.settle(); replace(next)
 */
export function builtSite(catalog: Catalog): BuiltSite & { settle: () => void } {
  const take = once(taker(catalog));
  return {
    version: catalog.version,
    get deals() {
      return take().deals;
    },
    get dealSlugs() {
      return take().dealSlugs;
    },
    get startups() {
      return take().startups;
    },
    settle: () => void take(),
  };
}

/**
 * What to serve for a request path when it is a catalog page (or its Markdown twin) that
 * changed since the build; `undefined` when the built file is right or the path is no such page.
 * @example changedPage('/deals/', built, catalog) // { kind: 'live', page: { kind: 'deals' }, path: '/deals/', markdown: false } after a write
 */
export function changedPage(pathname: string, built: BuiltSite, live: Catalog, logos: ChangedLogos): PageChange | undefined {
  if (live.version === built.version && !logos.stamp) return undefined;
  const match = PAGE_PATH.exec(pathname);
  if (!match) return undefined;
  const [, section, slug, file] = match;
  const path = section ? `/${section}/${slug ? `${slug}/` : ''}` : '/';
  const markdown = file === 'index.md';
  const serve = (page: LivePage): PageChange => ({ kind: 'live', page, path, markdown });
  if (!slug) return section === 'categories' ? undefined : serve({ kind: (section ?? 'home') as 'home' | 'deals' | 'programs' | 'startups' });
  if (section === 'deals') {
    const now = live.dealBySlug.get(slug);
    const unchanged = now ? built.deals.get(now) === slug : !built.dealSlugs.has(slug);
    if (unchanged && !logos.stamp) return undefined;
    return now ? serve({ kind: 'deal', deal: now }) : { kind: 'gone' };
  }
  if (section === 'categories') {
    const category = live.categories.deals.find((c) => c.slug === slug);
    return category ? serve({ kind: 'category', category }) : { kind: 'gone' };
  }
  if (section === 'startups') {
    if (built.startups.deref() === live.startups && !logos.stamp) return undefined;
    const startup = live.startups.find((s) => s.slug === slug);
    return startup ? serve({ kind: 'startup', startup }) : { kind: 'gone' };
  }
  return undefined;
}

// --- internal ---

/**
 * What `builtSite` takes, made when first asked for. Made apart from `builtSite`, so that only
 * this closure holds the catalog (until `once` lets it go), not the getters `builtSite` returns.
 */
function taker(catalog: Pick<Catalog, 'deals' | 'startups'>): () => Omit<BuiltSite, 'version'> {
  return () => {
    const records = catalog.deals;
    const deals = new WeakMap<Deal, string>();
    // From the records, not `dealBySlug`, which is made on first use (the build keeps slugs unique).
    for (const deal of records) deals.set(deal, deal.slug);
    return { deals, dealSlugs: new Set(records.map((deal) => deal.slug)), startups: new WeakRef(catalog.startups) };
  };
}

/** `/`, `/deals/`, `/deals/<slug>/`, `/programs/`, `/startups/[<slug>/]`, `/categories/<slug>/`, each also as `index.html` / `index.md`. */
const PAGE_PATH = /^\/(?:(deals|programs|startups|categories)(?:\/([a-z0-9-]+))?\/?)?(index\.(?:html|md))?$/;
