/** Default orderings (DESIGN "ordering, without search"). */
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Featured first, then recommended, then `lastUpdated` newest first, then title. */
export function compareDeals(a: Deal, b: Deal): number {
  return (
    Number(b.featured) - Number(a.featured) ||
    Number(b.recommended) - Number(a.recommended) ||
    byText(b.lastUpdated ?? '', a.lastUpdated ?? '') ||
    byText(a.title, b.title) ||
    byText(a.slug, b.slug)
  );
}

/** Featured first, then for sale before sold, then `lastUpdated` newest first, then name. */
export function compareStartups(a: Startup, b: Startup): number {
  return (
    Number(b.featured) - Number(a.featured) ||
    Number(b.forSale) - Number(a.forSale) ||
    byText(b.lastUpdated ?? '', a.lastUpdated ?? '') ||
    byText(a.name, b.name) ||
    byText(a.slug, b.slug)
  );
}

/** Title order used to break relevance ties (DESIGN "ordering, with search"). */
export function compareTitles(a: string, b: string): number {
  return byText(a, b);
}
