/**
 * Deal pages after admin writes. The site is built from the catalog the server started with;
 * the API follows every write at once, and so do deal pages: a deal created or changed since
 * the build is rendered live (its built page, if any, is out of date), and a deleted deal's
 * built page is no longer served. Unchanged deals keep their built pages (same record object:
 * a write replaces only the records it changes). Lists and category pages follow at the next
 * build (`npm start` rebuilds when content changed).
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { Deal } from '../../src/schemas/deal.ts';

export type DealPage = { kind: 'live'; deal: Deal; markdown: boolean } | { kind: 'gone' };

/** Where Astro renders a live deal page (src/pages/live/deal.astro). */
export const LIVE_DEAL_ROUTE = '/live/deal/';

/**
 * What to serve for a request path, when it is the page (or Markdown twin) of a deal that
 * changed since the build; `undefined` when the built files are right.
 */
export function changedDealPage(pathname: string, built: ReadonlyMap<string, Deal>, live: Catalog): DealPage | undefined {
  if (built === live.dealBySlug) return undefined;
  const match = /^\/deals\/([a-z0-9-]+)(\/(index\.html|index\.md)?)?$/.exec(pathname);
  if (!match) return undefined;
  const slug = match[1] as string;
  const before = built.get(slug);
  const now = live.dealBySlug.get(slug);
  if (now === before) return undefined;
  if (!now) return { kind: 'gone' };
  return { kind: 'live', deal: now, markdown: match[3] === 'index.md' };
}
