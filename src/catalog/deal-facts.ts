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
}

export const FEATURED = 1;
export const RECOMMENDED = 2;
/** The deal's category is in the `programs` scope. */
export const PROGRAMS = 4;
export const ACTIVE = DEAL_STATUSES.indexOf('active');
export const EXPIRED = DEAL_STATUSES.indexOf('expired');

/**
 * The facts of `deals`, by position.
 * @example dealFactsOf(catalog.deals, (deal) => scopeByCategory.get(deal.category) ?? 'deals')
 */
export function dealFactsOf(deals: readonly Deal[], scopeOf: (deal: Deal) => Scope): DealFacts {
  const categories = [...new Set(deals.map((deal) => deal.category))].sort();
  const categoryIndex = new Map(categories.map((name, i) => [name, i]));
  const facts: DealFacts = { status: new Uint8Array(deals.length), marks: new Uint8Array(deals.length), category: new Int32Array(deals.length), categories };
  deals.forEach((deal, position) => {
    facts.status[position] = DEAL_STATUSES.indexOf(deal.status);
    facts.marks[position] = (deal.featured ? FEATURED : 0) | (deal.recommended ? RECOMMENDED : 0) | (scopeOf(deal) === 'programs' ? PROGRAMS : 0);
    facts.category[position] = categoryIndex.get(deal.category) as number;
  });
  return facts;
}

/** The scope of the deal at `position`. */
export function dealScope(facts: DealFacts, position: number): Scope {
  return ((facts.marks[position] as number) & PROGRAMS) !== 0 ? 'programs' : 'deals';
}

/** SPEC "Deal list statistics" counted one deal position at a time, so a caller need not gather the deals first. */
export class StatsCounter {
  private total = 0;
  private active = 0;
  private expired = 0;
  private featured = 0;
  private recommended = 0;
  private readonly facts: DealFacts;
  private readonly scope: Scope | 'all';
  private readonly byCategory: Int32Array;

  constructor(facts: DealFacts, scope: Scope | 'all') {
    this.facts = facts;
    this.scope = scope;
    this.byCategory = new Int32Array(facts.categories.length);
  }

  add(position: number): void {
    const { facts } = this;
    this.total++;
    const status = facts.status[position];
    if (status === ACTIVE) this.active++;
    else if (status === EXPIRED) this.expired++;
    const marks = facts.marks[position] as number;
    if (marks & FEATURED) this.featured++;
    if (marks & RECOMMENDED) this.recommended++;
    const category = facts.category[position] as number;
    this.byCategory[category] = (this.byCategory[category] as number) + 1;
  }

  result(): DealStats {
    const byCategory: Record<string, number> = {};
    this.facts.categories.forEach((name, i) => {
      if ((this.byCategory[i] as number) > 0) byCategory[name] = this.byCategory[i] as number;
    });
    const { total, active, expired, featured, recommended, scope } = this;
    return { total, active, expired, featured, recommended, scope, byCategory };
  }
}
