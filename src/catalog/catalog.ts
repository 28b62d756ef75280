/**
 * The in-memory catalog: the prebuilt data plus lookup maps and loaded search indexes. Built
 * once per process from `generated/` (or straight from the pipeline after a write).
 */
import type { CategoriesFile, Scope } from '../schemas/category.ts';
import type { Deal } from '../schemas/deal.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import type { Drafts } from './drafts.ts';
import { compareTitles } from './order.ts';
import { loadSearchIndex, withDocuments, type CompactIndex, type SearchIndex } from './search.ts';
import { dealFieldTexts } from './index-fields.ts';
import { compileSynonyms, type SynonymTable } from './synonyms.ts';

/** What the build writes to `generated/catalog.json`: records already in default order. */
export interface CatalogData {
  /** Content hash: changes whenever any published record changes. */
  version: string;
  site: Site;
  categories: CategoriesFile;
  deals: Deal[];
  startups: Startup[];
  /** `content/synonyms.yaml` as validated; absent when the content has none. */
  synonyms?: SynonymsFile;
  /** Records saved as drafts (catalog/drafts.ts): in no public output; `generated/drafts.json`, never `catalog.json`. */
  drafts?: Drafts;
}

/** What the build writes to `generated/search-postings.json`: compact postings of the lunr indexes. */
export interface SearchPostings {
  deals: CompactIndex;
  startups: CompactIndex;
}

export interface Catalog extends CatalogData {
  /** Each deal serialised once, by position, so list answers are joined rather than stringified. */
  dealJson: string[];
  startupJson: string[];
  /** Rank of each deal's title (and each startup's name) in title order, for cheap tie-breaks. */
  dealTitleRank: Int32Array;
  startupNameRank: Int32Array;
  /** Scope of each deal, by position in `deals`. */
  dealScopes: Scope[];
  scopeByCategory: Map<string, Scope>;
  dealBySlug: Map<string, Deal>;
  dealById: Map<string, Deal>;
  /** Position in `deals` of each deal's lunr document, by index document number. */
  dealSearch: IndexedSearch;
  startupSearch: IndexedSearch;
  /** The editors' synonyms compiled for queries (empty without a synonyms file). */
  synonymTable: SynonymTable;
  /** Every deal an admin may change or preview, drafts included, by slug and by id: never for public answers. */
  editable: { dealBySlug: Map<string, Deal>; dealById: Map<string, Deal> };
}

/** A search index and, for each of its documents, the record's position in the catalog array. */
export interface IndexedSearch {
  index: SearchIndex;
  positions: Int32Array;
}

/**
 * Assemble the runtime catalog.
 * @example const catalog = createCatalog(JSON.parse(catalogJson), JSON.parse(indexJson))
 */
export function createCatalog(data: CatalogData, indexes: SearchPostings): Catalog {
  return {
    ...withDeals(data, indexes.deals),
    startupJson: data.startups.map(jsonOf),
    startupNameRank: rankBy(data.startups, (s) => s.name),
    startupSearch: indexed(indexes.startups, data.startups),
  };
}

/**
 * The catalog after a deals-only change: deal parts rebuilt (the search index updated in place
 * of a rebuild), startup parts reused from `previous` (same records in the same order).
 */
export function withChangedDeals(previous: Catalog, data: CatalogData, changed: readonly Deal[], removedIds: readonly string[]): Catalog {
  const index = withDocuments(
    previous.dealSearch.index,
    changed.map((deal) => ({ ref: deal.id, texts: dealFieldTexts(deal, data.categories) })),
    removedIds,
  );
  return {
    ...withDeals(data, index),
    startupJson: previous.startupJson,
    startupNameRank: previous.startupNameRank,
    startupSearch: previous.startupSearch,
  };
}

// --- internal ---

function withDeals(data: CatalogData, dealIndex: CompactIndex | SearchIndex) {
  const scopeByCategory = new Map(data.categories.deals.map((c) => [c.slug, c.scope]));
  const dealBySlug = new Map(data.deals.map((d) => [d.slug, d]));
  const dealById = new Map(data.deals.map((d) => [d.id, d]));
  return {
    ...data,
    dealJson: data.deals.map(jsonOf),
    dealTitleRank: rankBy(data.deals, (d) => d.title),
    scopeByCategory,
    dealScopes: data.deals.map((d) => scopeByCategory.get(d.category) ?? 'deals'),
    dealBySlug,
    dealById,
    dealSearch: indexed(dealIndex, data.deals),
    synonymTable: compileSynonyms(data.synonyms),
    editable: withDraftDeals({ dealBySlug, dealById }, data.drafts?.deals ?? []),
  };
}

/** The published deals' maps with the drafts added (the same maps when there are none). */
function withDraftDeals(published: Catalog['editable'], drafts: readonly Deal[]): Catalog['editable'] {
  if (drafts.length === 0) return published;
  const dealBySlug = new Map(published.dealBySlug);
  const dealById = new Map(published.dealById);
  for (const draft of drafts) {
    dealBySlug.set(draft.slug, draft);
    dealById.set(draft.id, draft);
  }
  return { dealBySlug, dealById };
}

/** Each record's JSON, computed once per record object (a write keeps unchanged records). */
const jsonCache = new WeakMap<object, string>();
function jsonOf(record: object): string {
  let json = jsonCache.get(record);
  if (json === undefined) jsonCache.set(record, (json = JSON.stringify(record)));
  return json;
}

function rankBy<T>(records: readonly T[], text: (r: T) => string): Int32Array {
  const order = records.map((_, i) => i).sort((a, b) => compareTitles(text(records[a] as T), text(records[b] as T)));
  const rank = new Int32Array(records.length);
  order.forEach((position, r) => (rank[position] = r));
  return rank;
}

function indexed(source: CompactIndex | SearchIndex, records: readonly { id: string }[]): IndexedSearch {
  const index = 'scratch' in source ? source : loadSearchIndex(source);
  const positionById = new Map(records.map((r, i) => [r.id, i]));
  return { index, positions: Int32Array.from(index.refs, (ref) => positionById.get(ref) ?? -1) };
}
