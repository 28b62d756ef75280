/**
 * What list filters and stats read of every deal (status, sponsored and editor's-pick marks,
 * scope, category), by position, in typed arrays made once per catalog: a search's hits (491 on
 * average over the bench's 2,000 queries, thousands for a common word) are filtered and counted
 * without reading each deal object.
 */
import type { Scope } from '../schemas/category.ts';
import { DEAL_STATUSES, type Deal } from '../schemas/deal.ts';
import type { DealStats } from './deals-query.ts';

export interface DealFacts {
  /** Index in DEAL_STATUSES of each deal's status. */
  status: Uint8Array;
  /** FEATURED, RECOMMENDED and PROGRAMS bits. */
  marks: Uint8Array;
  /** Index in `categories` of each deal's category. */
  category: Int32Array;
  /** The deals' categories, in code-unit order (the order of `stats.byCategory`). */
  categories: readonly string[];
  /**
   * Each deal's category, marks and status as one number (`factKey`): what a filter and the
   * stats read of a deal, in one read. A common word's tens of thousands of hits are filtered
   * by a table over these keys and counted by key, then the counts summed once per answer.
   */
  key: Int32Array;
}

export const FEATURED = 1;
export const RECOMMENDED = 2;
/** The deal's category is in the `programs` scope. */
export const PROGRAMS = 4;
export const ACTIVE = DEAL_STATUSES.indexOf('active');
// A fact key holds the status in 2 bits (`factKey`).
if (DEAL_STATUSES.length > 4) throw new Error('a deal status no longer fits in a fact key: widen factKey');
export const EXPIRED = DEAL_STATUSES.indexOf('expired');

/**
 * The facts of `deals`, by position.
 * @example dealFactsOf(catalog.deals, (deal) => scopeByCategory.get(deal.category) ?? 'deals')
 */
export function dealFactsOf<D extends Pick<Deal, 'category' | 'status' | 'featured' | 'recommended'>>(deals: readonly D[], scopeOf: (deal: D) => Scope): DealFacts {
  const categories = [...new Set(deals.map((deal) => deal.category))].sort();
  const categoryIndex = new Map(categories.map((name, i) => [name, i]));
  const facts: DealFacts = { status: new Uint8Array(deals.length), marks: new Uint8Array(deals.length), category: new Int32Array(deals.length), categories, key: new Int32Array(deals.length) };
  deals.forEach((deal, position) => {
    const status = DEAL_STATUSES.indexOf(deal.status);
    const marks = (deal.featured ? FEATURED : 0) | (deal.recommended ? RECOMMENDED : 0) | (scopeOf(deal) === 'programs' ? PROGRAMS : 0);
    const category = categoryIndex.get(deal.category) as number;
    facts.status[position] = status;
    facts.marks[position] = marks;
    facts.category[position] = category;
    facts.key[position] = factKey(category, marks, status);
  });
  return facts;
}

/** A deal's category, marks and status in one number: the status in 2 bits, the marks in 3 above it, the category above them. */
export function factKey(category: number, marks: number, status: number): number {
  return (category << 5) | (marks << 2) | status;
}

/**
 * Which fact keys `keep` keeps, as a table by key (1 kept, 0 not): a filter of what
 * `DealFacts` holds, asked once per key instead of once per deal.
 * @example const kept = factTable(facts, (category, marks, status) => status !== EXPIRED); kept[facts.key[position]] === 1
 */
export function factTable(facts: DealFacts, keep: (category: number, marks: number, status: number) => boolean): Uint8Array {
  const table = new Uint8Array(keySpace(facts));
  for (let key = 0; key < table.length; key++) table[key] = keep(key >> 5, (key >> 2) & 7, key & 3) ? 1 : 0;
  return table;
}

/** The scope of the deal at `position`. */
export function dealScope(facts: DealFacts, position: number): Scope {
  return ((facts.marks[position] as number) & PROGRAMS) !== 0 ? 'programs' : 'deals';
}

/**
 * SPEC "Deal list statistics" counted one deal position at a time, so a caller need not gather
 * the deals first: one count per fact key, summed into the stats once. Counting 20,000
 * positions took 122-125 µs with a counter per statistic, 19-26 µs by key (scratch
 * micro-benchmark, docs/performance.md, fourteenth sitting).
 */
export class StatsCounter {
  private readonly facts: DealFacts;
  private readonly scope: Scope | 'all';
  private readonly counts: Int32Array;

  constructor(facts: DealFacts, scope: Scope | 'all') {
    this.facts = facts;
    this.scope = scope;
    this.counts = new Int32Array(keySpace(facts));
  }

  add(position: number): void {
    const key = this.facts.key[position] as number;
    this.counts[key] = (this.counts[key] as number) + 1;
  }

  result(): DealStats {
    const { counts, facts, scope } = this;
    const byCount = new Int32Array(facts.categories.length);
    let [total, active, expired, featured, recommended] = [0, 0, 0, 0, 0];
    for (let key = 0; key < counts.length; key++) {
      const count = counts[key] as number;
      if (count === 0) continue;
      const status = key & 3;
      const marks = (key >> 2) & 7;
      total += count;
      if (status === ACTIVE) active += count;
      else if (status === EXPIRED) expired += count;
      if (marks & FEATURED) featured += count;
      if (marks & RECOMMENDED) recommended += count;
      byCount[key >> 5] = (byCount[key >> 5] as number) + count;
    }
    const byCategory: Record<string, number> = {};
    facts.categories.forEach((name, i) => {
      if ((byCount[i] as number) > 0) byCategory[name] = byCount[i] as number;
    });
    return { total, active, expired, featured, recommended, scope, byCategory };
  }
}

// --- internal ---

/** How many fact keys `facts` may hold: every category with every marks and status. */
function keySpace(facts: DealFacts): number {
  return Math.max(1, facts.categories.length) << 5;
}
