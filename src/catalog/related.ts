/**
 * Deals shown as "Related" on a deal's page: up to three live deals of the same category, in
 * catalog order. Indexed once per deal list (a WeakMap), since every deal page asks.
 */
import type { Deal } from '../schemas/deal.ts';

const byCategoryOf = new WeakMap<readonly Deal[], Map<string, Deal[]>>();

export function relatedDeals(deals: readonly Deal[], deal: Deal, count = 3): Deal[] {
  let byCategory = byCategoryOf.get(deals);
  if (!byCategory) {
    byCategory = new Map();
    for (const d of deals) if (d.status !== 'expired') byCategory.set(d.category, [...(byCategory.get(d.category) ?? []), d]);
    byCategoryOf.set(deals, byCategory);
  }
  return (byCategory.get(deal.category) ?? []).filter((d) => d.slug !== deal.slug).slice(0, count);
}
