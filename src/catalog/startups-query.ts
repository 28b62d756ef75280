/**
 * GET /startups as a pure function of the catalog (SPEC GET /startups, DESIGN: revenue bounds
 * inclusive, every filter combined with AND, `total` counts the matches). Results are
 * positions in `catalog.startups`.
 */
import type { Startup } from '../schemas/startup.ts';
import type { StartupListQuery } from '../schemas/query.ts';
import type { Catalog } from './catalog.ts';
import { compareHitsAt, searchColumns } from './search.ts';
import { queryWords } from './tokens.ts';
import { topK } from './top.ts';
import { positionsToRead } from './category-positions.ts';

export interface StartupList {
  positions: number[];
  total: number;
}

/**
 * Filter and order startup listings.
 * @example listStartups(catalog, { category: 'saas', minRevenue: 100000 })
 */
export function listStartups(catalog: Catalog, query: StartupListQuery): StartupList {
  const country = query.country?.toUpperCase();
  const category = query.category?.toLowerCase();
  const source = query.source?.toLowerCase();
  const forSale = query.forSale === undefined ? undefined : query.forSale === 'true';
  const { startups } = catalog;
  const matches = (position: number): boolean => {
    const s = startups[position] as Startup;
    if (category !== undefined && s.category !== category) return false;
    if (country !== undefined && s.country !== country) return false;
    if (source !== undefined && s.source !== source) return false;
    if (query.featured && !s.featured) return false;
    if (forSale !== undefined && s.forSale !== forSale) return false;
    // A listing without a revenue figure cannot satisfy a revenue bound.
    if (query.minRevenue !== undefined && (s.revenue === undefined || s.revenue < query.minRevenue)) return false;
    if (query.maxRevenue !== undefined && (s.revenue === undefined || s.revenue > query.maxRevenue)) return false;
    return true;
  };

  if (query.search !== undefined && query.search.trim() !== '') {
    const { index, positions } = catalog.startupSearch;
    const rank = catalog.startupNameRank();
    // The index's own columns (read before any other search): hit numbers, not an object per hit.
    const hits = searchColumns(index, queryWords(query.search));
    const at = (i: number) => positions[hits.docs[i] as number] as number;
    let keptCount = 0;
    for (let i = 0; i < hits.count; i++) if (matches(at(i))) hits.kept[keptCount++] = i;
    // docs/api.md "Search: matching and ranking", rules 1–4, then name.
    const ordered = topK(hits.kept.subarray(0, keptCount), (a, b) => compareHitsAt(hits, a, b) || (rank[at(a)] as number) - (rank[at(b)] as number));
    return { positions: ordered.map(at), total: ordered.length };
  }
  const positions: number[] = [];
  for (const position of positionsToRead(catalog.startupsByCategory, category, catalog.startupJson.length)) if (matches(position)) positions.push(position);
  return { positions, total: positions.length };
}
