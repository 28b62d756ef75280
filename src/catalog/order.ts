/** Default orderings (DESIGN "ordering, without search") and the other sorts of GET /deals. */
import type { Deal } from '../schemas/deal.ts';
import type { DealSort } from '../schemas/query.ts';
import type { Startup } from '../schemas/startup.ts';

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Featured first, then recommended, then `lastUpdated` newest first, then title. */
export function compareDeals(a: Deal, b: Deal): number {
  return (
    Number(b.featured) - Number(a.featured) || Number(b.recommended) - Number(a.recommended) || byText(b.lastUpdated ?? '', a.lastUpdated ?? '') || byText(a.title, b.title) || byText(a.slug, b.slug)
  );
}

/** Featured first, then for sale before sold, then `lastUpdated` newest first, then name. */
export function compareStartups(a: Startup, b: Startup): number {
  return Number(b.featured) - Number(a.featured) || Number(b.forSale) - Number(a.forSale) || byText(b.lastUpdated ?? '', a.lastUpdated ?? '') || byText(a.name, b.name) || byText(a.slug, b.slug);
}

/**
 * The order a `sort` other than `relevance` puts deals in, or undefined for `relevance` (the
 * default order, or the search ranking). Ties are left to the caller (docs/api.md "Sorting":
 * they keep the default order).
 * - `value`: `valueUsd` highest first, deals without one after;
 * - `expiry`: closing soonest first ({@link closingDate}), deals with no date after, expired deals last;
 * - `newest`: `lastUpdated` newest first, deals without one after.
 * @example deals.sort(dealSortOrder('value'))
 */
export function dealSortOrder(sort: DealSort | undefined): ((a: Deal, b: Deal) => number) | undefined {
  switch (sort) {
    case 'value':
      return (a, b) => (b.valueUsd ?? -1) - (a.valueUsd ?? -1);
    case 'expiry':
      return (a, b) => Number(a.status === 'expired') - Number(b.status === 'expired') || byText(closingDate(a) ?? NO_DATE, closingDate(b) ?? NO_DATE);
    case 'newest':
      return (a, b) => byText(b.lastUpdated ?? '', a.lastUpdated ?? '');
    default:
      return undefined;
  }
}

/**
 * When a deal stops taking applications: the earlier of its `expiryDate` and a program's
 * `nextDeadline`, or undefined when it states neither.
 * @example closingDate({ expiryDate: '2027-06-30', nextDeadline: '2027-03-01' }) // '2027-03-01'
 */
export function closingDate(deal: Pick<Deal, 'expiryDate' | 'nextDeadline'>): string | undefined {
  const { expiryDate, nextDeadline } = deal;
  if (expiryDate === undefined || nextDeadline === undefined) return expiryDate ?? nextDeadline;
  return expiryDate < nextDeadline ? expiryDate : nextDeadline;
}

/** Title order used to break relevance ties (DESIGN "ordering, with search"). */
export function compareTitles(a: string, b: string): number {
  return byText(a, b);
}

// --- internal ---

/** Sorts after every ISO date. */
const NO_DATE = '\uffff';
