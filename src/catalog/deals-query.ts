/**
 * GET /deals as a pure function of the catalog: filters, ordering, stats and limit
 * (SPEC GET /deals and DESIGN "API decisions"). No I/O, no Request. Results are positions in
 * `catalog.deals`, so callers can reuse each deal's pre-serialised JSON.
 */
import type { Scope } from '../schemas/category.ts';
import { LIMIT_CAP, type DealListQuery } from '../schemas/query.ts';
import { DEAL_STATUSES, type Deal } from '../schemas/deal.ts';
import { dealFactsOf, EXPIRED, FEATURED, factTable, PROGRAMS, RECOMMENDED, StatsCounter } from './deal-facts.ts';
import { regionsOverlap } from '../schemas/program.ts';
import type { Catalog } from './catalog.ts';
import { dealSortOrder } from './order.ts';
import { compareHits, compareHitsAt, hitColumnsOf, search, searchColumns, searchWords, type HitColumns, type SearchHit } from './search.ts';
import { queryWords } from './tokens.ts';
import { expandQuery } from './synonyms.ts';
import { topK } from './top.ts';
import { positionsToRead } from './category-positions.ts';
import { sortOrder } from './sort-orders.ts';
import { PerCatalog } from './per-catalog.ts';

/** SPEC "Deal list statistics". */
export interface DealStats {
  total: number;
  active: number;
  expired: number;
  featured: number;
  recommended: number;
  scope: Scope | 'all';
  byCategory: Record<string, number>;
}

export interface DealList {
  /** Positions in `catalog.deals`, in answer order, after `limit`. */
  positions: number[];
  stats: DealStats;
}

/**
 * Filter, order and count deals.
 * @example listDeals(catalog, { search: 'aws', limit: 20 }).positions.map((p) => catalog.deals[p])
 */
export function listDeals(catalog: Catalog, query: DealListQuery): DealList {
  const scope = effectiveScope(catalog, query);
  const facts = catalog.dealFacts;
  // What most filters ask is read from the deal facts (typed arrays); the rest from the deal.
  const scopeMark = scope === 'all' ? -1 : scope === 'programs' ? PROGRAMS : 0;
  const status = query.status === undefined || query.status === 'all' ? -1 : DEAL_STATUSES.indexOf(query.status);
  const category = query.category?.toLowerCase();
  const categoryIndex = category === undefined ? -1 : facts.categories.indexOf(category);
  const wanted = (query.featured ? FEATURED : 0) | (query.recommended ? RECOMMENDED : 0);
  const region = query.region;
  const byDeal = query.equity === 'none' || query.stage !== undefined || region !== undefined;
  // What the deal facts decide, asked once per fact key (a table kept per filter) rather than once per deal.
  const byFacts = (categoryAt: number, marks: number, statusAt: number): boolean => {
    if (scopeMark !== -1 && (marks & PROGRAMS) !== scopeMark) return false;
    if (query.status === undefined ? statusAt === EXPIRED : status !== -1 && statusAt !== status) return false;
    if (category !== undefined && categoryAt !== categoryIndex) return false;
    return (marks & wanted) === wanted;
  };
  const statsKey = filterKey(catalog, query, scope, category);
  const kept = factTableOf(catalog, statsKey, byFacts);
  const { key } = facts;
  // Read only by filters the facts do not hold: reading it parses any record not parsed yet (records-in-file.ts).
  const deals = byDeal ? catalog.deals : [];
  const matches = (position: number): boolean => {
    if (kept[key[position] as number] !== 1) return false;
    if (!byDeal) return true;
    const deal = deals[position] as Deal;
    // Program facts: a deal that does not state the fact does not match (docs/api.md).
    if (query.equity === 'none' && deal.equityPercent !== 0) return false;
    if (query.stage !== undefined && !deal.stages?.includes(query.stage)) return false;
    if (region !== undefined && !deal.regions?.some((r) => regionsOverlap(r, region))) return false;
    return true;
  };
  const sorted = dealSortOrder(query.sort);
  const order = sorted && sortOrder(catalog, query.sort as string, sorted);
  const bySort = order && ((a: number, b: number) => (order.rank[a] as number) - (order.rank[b] as number));
  const limit = query.limit === undefined ? undefined : Math.min(query.limit, LIMIT_CAP);

  if (query.search !== undefined && query.search.trim() !== '') {
    const { positions } = catalog.dealSearch;
    const hits = searchWithSynonyms(catalog, query.search);
    const at = (i: number) => positions[hits.docs[i] as number] as number;
    // One pass over what may be tens of thousands of hits: filter, and count for the stats.
    const { kept: hitsKept } = hits;
    let keptCount = 0;
    const counter = new StatsCounter(facts, scope);
    for (let i = 0; i < hits.count; i++) {
      const position = at(i);
      if (!matches(position)) continue;
      hitsKept[keptCount++] = i;
      counter.add(position);
    }
    const found = hitsKept.subarray(0, keptCount);
    // DESIGN: the ranking rules (docs/api.md), then the default order (featured, recommended,
    // lastUpdated, title), which `catalog.deals` is already in: paid placement only breaks ties.
    // Another `sort` goes after the first rule (more words matched first), before the others.
    const { words } = hits;
    const ordered = bySort
      ? topK(found, (a, b) => (words[b] as number) - (words[a] as number) || bySort(at(a), at(b)) || compareHitsAt(hits, a, b) || at(a) - at(b), limit)
      : topK(found, (a, b) => compareHitsAt(hits, a, b) || at(a) - at(b), limit);
    return { positions: ordered.map(at), stats: counter.result() };
  }
  // In the default order (the catalog's): a category's positions alone. In a sort's order,
  // prepared once per catalog: walked whole, the fact table leaving out the other categories,
  // which costs less than sorting a category's positions by place on every request.
  const candidates = order ? order.positions : positionsToRead(catalog.dealsByCategory, category, catalog.dealJson.length);
  // The stats of a filter are counted once per catalog; after that, a list reads only as far as its `limit`.
  const known = statsKey === undefined ? undefined : knownStats.peek(catalog, statsKey);
  if (known && limit !== undefined) {
    const positions: number[] = [];
    for (const position of candidates) {
      if (positions.length === limit) break;
      if (matches(position)) positions.push(position);
    }
    return { positions, stats: known };
  }
  const all: number[] = [];
  const counter = new StatsCounter(facts, scope);
  for (const position of candidates) {
    if (!matches(position)) continue;
    all.push(position);
    counter.add(position);
  }
  const stats = counter.result();
  // Frozen: the same object answers every later request with this filter.
  if (statsKey !== undefined) knownStats.keep(catalog, statsKey, Object.freeze({ ...stats, byCategory: Object.freeze(stats.byCategory) }) as DealStats);
  return { positions: limit === undefined ? all : all.slice(0, limit), stats };
}

/**
 * The single deal named by `slug` and/or `id`; when both are given they must name the same deal.
 * @example findDeal(catalog, { slug: 'aws-activate' })
 */
export function findDeal(catalog: Catalog, key: { slug?: string | undefined; id?: string | undefined }): Deal | undefined {
  const bySlug = key.slug === undefined ? undefined : catalog.dealBySlug.get(key.slug);
  const byId = key.id === undefined ? undefined : catalog.dealById.get(key.id);
  if (key.slug !== undefined && key.id !== undefined) return bySlug === byId ? bySlug : undefined;
  return bySlug ?? byId;
}

/** Stats over a set of deals (DESIGN: over every match, before `limit`). */
export function dealStats(deals: readonly Deal[], scope: Scope | 'all'): DealStats {
  const counter = new StatsCounter(
    dealFactsOf(deals, () => 'deals'),
    scope,
  );
  for (let position = 0; position < deals.length; position++) counter.add(position);
  return counter.result();
}

/** DESIGN: default scope `deals`; a `category` without `scope` means that category's scope. */
export function effectiveScope(catalog: Catalog, query: DealListQuery): Scope | 'all' {
  if (query.scope !== undefined) return query.scope;
  if (query.category !== undefined) return catalog.scopeByCategory.get(query.category.toLowerCase()) ?? 'deals';
  return 'deals';
}

// --- internal ---

/** Stats of the filters asked for, per catalog (a write makes a new catalog, so they never go stale). */
const knownStats = new PerCatalog<DealStats>();

/**
 * What decides a filter's matches, as a key: every parameter but `search`, `sort` and `limit`.
 * None for a category the catalog does not have, so the keys kept are bounded by the catalog's
 * categories and the parameters' fixed values, whatever clients send.
 */
function filterKey(catalog: Catalog, query: DealListQuery, scope: Scope | 'all', category: string | undefined): string | undefined {
  if (category !== undefined && !catalog.dealsByCategory.has(category)) return undefined;
  return [scope, category, query.status, query.featured, query.recommended, query.equity, query.stage, query.region].join('|');
}

/** Each filter's fact table (`factTable`), per catalog, as `knownStats`: the keys are bounded the same way. */
const knownTables = new PerCatalog<Uint8Array>();

/** The fact table of the filter `statsKey` names (made once per catalog), or made for this query when it has no key. */
function factTableOf(catalog: Catalog, statsKey: string | undefined, keep: Parameters<typeof factTable>[1]): Uint8Array {
  const make = () => factTable(catalog.dealFacts, keep);
  return statsKey === undefined ? make() : knownTables.of(catalog, statsKey, make);
}

/**
 * Editors' synonyms (content/synonyms.yaml, DESIGN "search syntax"), kept outside the engine:
 * the original query and each synonym-expanded variant (at most MAX_VARIANTS, synonyms.ts) are
 * searched as they are, and a document found by several keeps its best rank. Cheap because the
 * variants are few (at most five searches per query) and each is an ordinary search.
 *
 * A variant's hit is ranked in the original query's terms (`asOriginal`), so a longer synonym
 * cannot outrank the words people typed by its length: "cdn" → "content delivery network" must
 * not rank a page with "content" and "delivery" above the one that says "CDN".
 */
function searchWithSynonyms(catalog: Catalog, text: string): HitColumns {
  const { index } = catalog.dealSearch;
  const words = queryWords(text);
  const variants = expandQuery(text, catalog.synonymTable);
  // Most queries: the index's own columns, no object per hit.
  if (variants.length === 0) return searchColumns(index, words);
  const best = new Map<number, SearchHit>();
  for (const hit of searchWords(index, words)) best.set(hit.doc, hit);
  const originalWords = words.length;
  for (const variant of variants) {
    const variantWords = queryWords(variant).length;
    for (const found of search(index, variant)) {
      const hit = asOriginal(found, originalWords, variantWords);
      if (hit === undefined) continue;
      const known = best.get(hit.doc);
      if (known === undefined || compareHits(hit, known) < 0) best.set(hit.doc, hit);
    }
  }
  return hitColumnsOf([...best.values()]);
}

/**
 * A variant's hit measured against the original query: the share of the variant's words it
 * matched, in original words, rounded down (none left drops it: matching "content" alone is not
 * matching "cdn"), and its word rank scaled the same way. Otherwise a synonym counts as the
 * words it stands for, exactly (as Algolia's and Meilisearch's synonyms do).
 */
function asOriginal(hit: SearchHit, originalWords: number, variantWords: number): SearchHit | undefined {
  if (variantWords === originalWords) return hit;
  const words = Math.floor((hit.words * originalWords) / Math.max(variantWords, 1));
  if (words === 0) return undefined;
  const wordRank = Math.max(1, Math.floor((hit.wordRank * (2 ** originalWords - 1)) / (2 ** variantWords - 1)));
  return { ...hit, words, wordRank };
}
