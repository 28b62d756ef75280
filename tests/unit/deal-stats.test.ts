/**
 * GET /deals filters, sorts and stats as `listDeals` reads them (deal facts, one number per deal:
 * deal-facts.ts `factKey`, a table per filter, counts by key; sort orders prepared once:
 * sort-orders.ts) against a plain reading of the
 * deals themselves (SPEC "Deal list statistics", DESIGN: default scope `deals`, expired left out
 * unless asked for, stats over every match before `limit`), over random queries on the sample
 * catalog and the `facts` fixture.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createCatalog, type Catalog } from '../../src/catalog/catalog.ts';
import { effectiveScope, listDeals, type DealStats } from '../../src/catalog/deals-query.ts';
import { dealSortOrder } from '../../src/catalog/order.ts';
import { compareHits, searchWords, type SearchHit } from '../../src/catalog/search.ts';
import { expandQuery } from '../../src/catalog/synonyms.ts';
import { queryWords } from '../../src/catalog/tokens.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { DEAL_STATUSES, type Deal } from '../../src/schemas/deal.ts';
import type { DealListQuery } from '../../src/schemas/query.ts';
import { FIXTURES } from '../helpers/server.ts';

const catalogs: Record<string, Catalog> = {};

beforeAll(async () => {
  for (const [name, folder] of [
    ['sample', 'content'],
    ['facts', join(FIXTURES, 'facts')],
  ]) {
    const built = runPipeline(await readContent(folder as string), { today: '2026-11-21' });
    if (!built.value) throw new Error(`${name} does not build`);
    catalogs[name as string] = createCatalog(built.value.data, built.value.postings);
  }
});

/** Whether `deal` passes the query's filters, read from the deal itself. */
function passes(catalog: Catalog, deal: Deal, query: DealListQuery): boolean {
  const scope = effectiveScope(catalog, query);
  if (scope !== 'all' && (catalog.scopeByCategory.get(deal.category) ?? 'deals') !== scope) return false;
  if (query.status === undefined ? deal.status === 'expired' : query.status !== 'all' && deal.status !== query.status) return false;
  if (query.category !== undefined && deal.category !== query.category.toLowerCase()) return false;
  if (query.featured && !deal.featured) return false;
  if (query.recommended && !deal.recommended) return false;
  return true;
}

/** The stats of `deals`, counted one by one. */
function statsOf(deals: readonly Deal[], scope: DealStats['scope']): DealStats {
  const byCategory: Record<string, number> = {};
  for (const deal of deals) byCategory[deal.category] = (byCategory[deal.category] ?? 0) + 1;
  return {
    total: deals.length,
    active: deals.filter((d) => d.status === 'active').length,
    expired: deals.filter((d) => d.status === 'expired').length,
    featured: deals.filter((d) => d.featured).length,
    recommended: deals.filter((d) => d.recommended).length,
    scope,
    byCategory,
  };
}

const query = (catalog: Catalog): fc.Arbitrary<DealListQuery> =>
  fc.record(
    {
      scope: fc.constantFrom('deals', 'programs', 'all'),
      status: fc.constantFrom(...DEAL_STATUSES, 'all'),
      category: fc.constantFrom(...catalog.dealFacts.categories, 'no-such-category', catalog.dealFacts.categories[0]?.toUpperCase() ?? 'X'),
      featured: fc.boolean(),
      recommended: fc.boolean(),
      limit: fc.integer({ min: 1, max: 30 }),
      sort: fc.constantFrom('value', 'expiry', 'newest', 'relevance'),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<DealListQuery>;

describe.each(['sample', 'facts'])('filters and stats on the %s catalog', (name) => {
  test('the deals listed (in the sort asked for) and their stats are those of a plain reading of every deal', () => {
    const catalog = catalogs[name] as Catalog;
    fc.assert(
      fc.property(query(catalog), (q) => {
        const compare = dealSortOrder(q.sort);
        const expected = catalog.deals.flatMap((deal, position) => (passes(catalog, deal, q) ? [position] : []));
        // A sort, ties in the default order (the catalog's).
        if (compare) expected.sort((a, b) => compare(catalog.deals[a] as Deal, catalog.deals[b] as Deal) || a - b);
        const list = listDeals(catalog, q);
        expect(list.positions).toEqual(q.limit === undefined ? expected : expected.slice(0, q.limit));
        expect(list.stats).toEqual(
          statsOf(
            expected.map((p) => catalog.deals[p] as Deal),
            effectiveScope(catalog, q),
          ),
        );
        // Asked again (the filter's table and stats now kept), the same answer.
        expect(listDeals(catalog, q)).toEqual(list);
      }),
      { numRuns: 400 },
    );
  });

  test('with search: every hit passes the filters, and the stats count exactly the hits', () => {
    const catalog = catalogs[name] as Catalog;
    const words = [...new Set(catalog.deals.flatMap((deal) => `${deal.title} ${deal.provider}`.toLowerCase().split(/[^a-z0-9]+/)))].filter((w) => w.length > 2);
    fc.assert(
      fc.property(query(catalog), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }), (q, searched) => {
        const all = listDeals(catalog, { ...q, search: searched.join(' '), limit: undefined });
        const hits = all.positions.map((p) => catalog.deals[p] as Deal);
        for (const deal of hits) expect(passes(catalog, deal, q)).toBe(true);
        expect(all.stats).toEqual(statsOf(hits, effectiveScope(catalog, q)));
        expect(listDeals(catalog, { ...q, search: searched.join(' ') }).stats).toEqual(all.stats);
      }),
      { numRuns: 300 },
    );
  });

  test('with search and a sort: more words matched first, then the sort (ties kept), then relevance, then the default order', () => {
    const catalog = catalogs[name] as Catalog;
    const { index, positions } = catalog.dealSearch;
    const words = [...new Set(catalog.deals.flatMap((deal) => `${deal.title} ${deal.provider} ${deal.category}`.toLowerCase().split(/[^a-z0-9]+/)))].filter((w) => w.length > 2);
    fc.assert(
      fc.property(query(catalog), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }), (q, searched) => {
        const text = searched.join(' ');
        const compare = dealSortOrder(q.sort);
        // Editors' synonyms search more than the words: this reference reads the words alone.
        if (!compare || expandQuery(text, catalog.synonymTable).length > 0) return;
        const dealOf = (hit: SearchHit) => catalog.deals[positions[hit.doc] as number] as Deal;
        const expected = searchWords(index, queryWords(text))
          .filter((hit) => passes(catalog, dealOf(hit), q))
          .sort((a, b) => b.words - a.words || compare(dealOf(a), dealOf(b)) || compareHits(a, b) || (positions[a.doc] as number) - (positions[b.doc] as number))
          .map((hit) => positions[hit.doc] as number);
        expect(listDeals(catalog, { ...q, search: text, limit: undefined }).positions).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
