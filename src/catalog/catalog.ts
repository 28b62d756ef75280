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
import { positionsBy } from './category-positions.ts';
import { dealFactsOf, type DealFacts } from './deal-facts.ts';
import { loadSearchIndex, withDocuments, type PostingsLayout, type SearchIndex } from './search.ts';
import { dealFieldTexts, startupFieldTexts } from './index-fields.ts';
import { compileSynonyms, type SynonymTable } from './synonyms.ts';
import { RecordBytes } from './record-bytes.ts';
import { idsDigest, type DealSummary, type LaterRecords, type StartupSummary } from './record-spans.ts';
import type { RecordsInFile } from './records-in-file.ts';
import { LazyMap } from './lazy-map.ts';
import { once } from './once.ts';
import { compareTitles } from './order.ts';

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

/** The postings of both search indexes, as the build makes them and `generated/search-postings.bin` holds them (catalog/postings-file.ts). */
export interface SearchPostings {
  deals: PostingsLayout;
  startups: PostingsLayout;
}

export interface Catalog extends CatalogData {
  /** Each deal's JSON as UTF-8, by position: answers are assembled from these bytes. */
  dealJson: RecordBytes;
  startupJson: RecordBytes;
  /** Rank of each startup's name in title order, for cheap tie-breaks: made on first use (a startup search), and kept while the startups are. */
  startupNameRank: () => Int32Array;
  /** Positions in `deals` (and `startups`) of each category's records, ascending: a category filter reads only these. */
  dealsByCategory: Map<string, Int32Array>;
  startupsByCategory: Map<string, Int32Array>;
  /** Status, marks, scope (`dealScope`) and category of each deal in typed arrays, for filters and stats. */
  dealFacts: DealFacts;
  scopeByCategory: Map<string, Scope>;
  /** The lookup maps are made on first use (lazy-map.ts). */
  dealBySlug: ReadonlyMap<string, Deal>;
  dealById: ReadonlyMap<string, Deal>;
  /** Position in `deals` of each deal, by slug: where a single deal's bytes are in `dealJson`. */
  dealPositionBySlug: ReadonlyMap<string, number>;
  startupBySlug: ReadonlyMap<string, Startup>;
  startupById: ReadonlyMap<string, Startup>;
  /** Position in `deals` of each deal's lunr document, by index document number. */
  dealSearch: IndexedSearch;
  startupSearch: IndexedSearch;
  /** The editors' synonyms compiled for queries (empty without a synonyms file). */
  synonymTable: SynonymTable;
  /** Every record an admin may change or preview, drafts included, by slug and by id: never for public answers. */
  editable: EditableRecords;
  /**
   * Parse the records not parsed yet, a slice at a time with the event loop free between
   * (records-in-file.ts); resolves at once when every record is. The server calls it once it listens.
   */
  parseRecords: () => Promise<void>;
}

/** The published records' lookup maps with the drafts (catalog/drafts.ts) added: a draft's slug and id stay taken. */
export interface EditableRecords {
  dealBySlug: ReadonlyMap<string, Deal>;
  dealById: ReadonlyMap<string, Deal>;
  startupBySlug: ReadonlyMap<string, Startup>;
  startupById: ReadonlyMap<string, Startup>;
}

/** A search index and, for each of its documents, the record's position in the catalog array. */
export interface IndexedSearch {
  index: SearchIndex;
  positions: Int32Array;
}

/**
 * Assemble the runtime catalog. `json`: the records' bytes as the build wrote them
 * (`RecordBytes.inFile`); without it, every record is serialised here. `later`: the records are
 * parsed when first read (record-spans.ts `readCatalogFile`), and what the catalog derives from
 * every record at start is taken from their summaries; `catalog.deals` and `catalog.startups`
 * then parse what is left when first read.
 * @example const catalog = createCatalog(JSON.parse(catalogJson), readPostingsFile(postingsBytes))
 */
export function createCatalog(data: CatalogData, indexes: SearchPostings, json?: { deals: RecordBytes; startups: RecordBytes }, later?: LaterRecords): Catalog {
  const dealRecords = later ? parsedLater(later.deals, later.summaries.deals, later.ids.deals) : parsed(data.deals);
  const startupRecords = later ? parsedLater(later.startups, later.summaries.startups, later.ids.startups) : parsed(data.startups);
  const deals = dealParts(data, indexes.deals, json?.deals ?? RecordBytes.of(data.deals), dealRecords);
  const startups = startupParts(indexes.startups, json?.startups ?? RecordBytes.of(data.startups), startupRecords);
  const parseRecords = later ? inTurns(later.deals, later.startups) : PARSED;
  const catalog: Catalog = { ...data, ...deals, ...startups, editable: { ...editableDeals(data, deals), ...editableStartups(data, startups) }, parseRecords };
  if (later) {
    Object.defineProperty(catalog, 'deals', { get: dealRecords.all, enumerable: true, configurable: true });
    Object.defineProperty(catalog, 'startups', { get: startupRecords.all, enumerable: true, configurable: true });
  }
  return catalog;
}

/**
 * The catalog after a deals-only change: deal parts rebuilt (the search index updated in place
 * of a rebuild), startup parts reused from `previous` (same records in the same order).
 * `changed`: the deals whose files changed, drafts included (a draft leaves the index);
 * `removedIds`: the ids of deals that went.
 */
export function withChangedDeals(previous: Catalog, data: CatalogData, changed: readonly Deal[], removedIds: readonly string[]): Catalog {
  const deals = dealParts(
    data,
    reindexed(previous.dealSearch.index, changed, removedIds, (deal) => dealFieldTexts(deal, data.categories)),
    RecordBytes.of(data.deals, { records: previous.deals, bytes: previous.dealJson }),
    parsed(data.deals),
  );
  return { ...data, ...deals, ...pick(previous, STARTUP_PARTS), editable: { ...previous.editable, ...editableDeals(data, deals) }, parseRecords: PARSED };
}

/** The catalog after a startups-only change: the mirror of `withChangedDeals`. */
export function withChangedStartups(previous: Catalog, data: CatalogData, changed: readonly Startup[], removedIds: readonly string[]): Catalog {
  const startups = startupParts(
    reindexed(previous.startupSearch.index, changed, removedIds, startupFieldTexts),
    RecordBytes.of(data.startups, { records: previous.startups, bytes: previous.startupJson }),
    parsed(data.startups),
  );
  return { ...data, ...pick(previous, DEAL_PARTS), ...startups, editable: { ...previous.editable, ...editableStartups(data, startups) }, parseRecords: PARSED };
}

/**
 * Parse the records not parsed yet, then make the lookup maps (every part that is a `LazyMap`) and
 * the name rank that are otherwise made on first use, one at a time with the event loop free
 * between them: the server calls it once it listens, and a request that comes meanwhile waits for
 * one map at most (26-93 ms at 100,000 records).
 */
export async function prepareLookups(catalog: Catalog): Promise<void> {
  await catalog.parseRecords();
  const maps = Object.values(catalog).filter((part): part is LazyMap<unknown, unknown> => part instanceof LazyMap);
  for (const make of [...maps.map((map) => () => map.size), catalog.startupNameRank]) {
    await new Promise((resolve) => setImmediate(resolve));
    make();
  }
}

/**
 * Each indexed document's position in `records` (-1 for none). The build indexes the records in
 * their order, so document i is usually record i: checked one by one. After a write the index
 * keeps its order while a changed record may move in the catalog's, which shifts the records
 * between by one: each is then looked for where the last one was found, and a document found
 * neither way is looked for by a walk of the records, or, after `MOST_WALKS` walks, in a map of
 * every id. At 50,000 deals and 100,000 startups that map took about 210 ms of the start
 * (`indexed` in the profile), and 32 ms of every admin write to a deal that moved.
 */
export function positionsOfRefs(refs: readonly string[], records: readonly { id: string }[]): Int32Array {
  const positions = new Int32Array(refs.length);
  let positionById: Map<string, number> | undefined;
  let shift = 0;
  let walks = 0;
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i] as string;
    if (records[i]?.id === ref) positions[i] = i;
    else if (records[i + shift]?.id === ref) positions[i] = i + shift;
    else {
      let found: number;
      if (!positionById && walks < MOST_WALKS) {
        walks++;
        found = records.findIndex((record) => record.id === ref);
      } else {
        positionById ??= new Map(records.map((r, p) => [r.id, p]));
        found = positionById.get(ref) ?? -1;
      }
      positions[i] = found;
      if (found >= 0) shift = found - i;
    }
  }
  return positions;
}

/** Walks of the records `positionsOfRefs` makes before it makes a map of every id instead. */
const MOST_WALKS = 16;

// --- internal ---

/** What a catalog derives from its deals (and categories), rebuilt when they change. */
const DEAL_PARTS = ['dealJson', 'dealsByCategory', 'scopeByCategory', 'dealFacts', 'dealBySlug', 'dealById', 'dealPositionBySlug', 'dealSearch', 'synonymTable'] as const;
/** What a catalog derives from its startups. */
const STARTUP_PARTS = ['startupJson', 'startupsByCategory', 'startupNameRank', 'startupBySlug', 'startupById', 'startupSearch'] as const;

/**
 * A list of records as a catalog's parts are made from it: the records (parsed when first asked
 * for, when they are parsed later) and what is read of every record at start (the records
 * themselves, or their summaries from the build); `ids`, the digest of their ids when known.
 */
interface Records<T, S> {
  all: () => readonly T[];
  summaries: readonly S[];
  ids?: string;
}

function parsed<T>(records: readonly T[]): Records<T, T> {
  return { all: () => records, summaries: records };
}

/** Records parsed from the file when first read. Functions of their own: a closure keeps only what it reads, not the summaries. */
function parsedLater<T, S>(file: RecordsInFile<T>, summaries: readonly S[], ids: string): Records<T, S> {
  return { all: () => file.all(), summaries, ids };
}

function inTurns(deals: RecordsInFile<Deal>, startups: RecordsInFile<Startup>): () => Promise<void> {
  return async () => {
    await deals.parseInTurns();
    await startups.parseInTurns();
  };
}

/** `parseRecords` of a catalog whose records are all parsed. */
const PARSED = (): Promise<void> => Promise.resolve();

function dealParts(data: CatalogData, dealIndex: PostingsLayout | SearchIndex, dealJson: RecordBytes, deals: Records<Deal, DealSummary>): Pick<Catalog, (typeof DEAL_PARTS)[number]> {
  const scopeByCategory = new Map(data.categories.deals.map((c) => [c.slug, c.scope]));
  return {
    dealJson,
    dealsByCategory: positionsBy(deals.summaries, (d) => d.category),
    scopeByCategory,
    dealFacts: dealFactsOf(deals.summaries, (deal) => scopeByCategory.get(deal.category) ?? 'deals'),
    dealBySlug: new LazyMap((map) => deals.all().forEach((d) => map.set(d.slug, d))),
    dealPositionBySlug: new LazyMap((map) => deals.all().forEach((d, i) => map.set(d.slug, i))),
    dealById: new LazyMap((map) => deals.all().forEach((d) => map.set(d.id, d))),
    dealSearch: indexed(dealIndex, deals),
    synonymTable: compileSynonyms(data.synonyms),
  };
}

function startupParts(startupIndex: PostingsLayout | SearchIndex, startupJson: RecordBytes, startups: Records<Startup, StartupSummary>): Pick<Catalog, (typeof STARTUP_PARTS)[number]> {
  return {
    startupJson,
    startupsByCategory: positionsBy(startups.summaries, (s) => s.category),
    startupNameRank: once(() => rankBy(startups.all(), (s) => s.name)),
    startupBySlug: new LazyMap((map) => startups.all().forEach((s) => map.set(s.slug, s))),
    startupById: new LazyMap((map) => startups.all().forEach((s) => map.set(s.id, s))),
    startupSearch: indexed(startupIndex, startups),
  };
}

/** The deals an admin may change: the published ones and the drafts. */
function editableDeals(data: CatalogData, deals: Pick<Catalog, 'dealBySlug' | 'dealById'>): Pick<EditableRecords, 'dealBySlug' | 'dealById'> {
  const drafts = data.drafts?.deals ?? [];
  return { dealBySlug: withDrafts(deals.dealBySlug, drafts, (d) => d.slug), dealById: withDrafts(deals.dealById, drafts, (d) => d.id) };
}

/** The startups an admin may change: the published ones and the drafts. */
function editableStartups(data: CatalogData, startups: Pick<Catalog, 'startupBySlug' | 'startupById'>): Pick<EditableRecords, 'startupBySlug' | 'startupById'> {
  const drafts = data.drafts?.startups ?? [];
  return { startupBySlug: withDrafts(startups.startupBySlug, drafts, (s) => s.slug), startupById: withDrafts(startups.startupById, drafts, (s) => s.id) };
}

/** A published records' map with the drafts added under `key` (the same map when there are none). */
function withDrafts<T>(published: ReadonlyMap<string, T>, drafts: readonly T[], key: (record: T) => string): ReadonlyMap<string, T> {
  if (drafts.length === 0) return published;
  return new LazyMap((map) => {
    published.forEach((record, at) => map.set(at, record));
    for (const draft of drafts) map.set(key(draft), draft);
  });
}

/**
 * `index` after `changed` records were written and those with `removedIds` went: a record
 * saved as a draft leaves it (catalog/drafts.ts), any other is indexed anew.
 */
function reindexed<T extends { id: string; draft?: boolean | undefined }>(index: SearchIndex, changed: readonly T[], removedIds: readonly string[], texts: (record: T) => string[]): SearchIndex {
  const published = changed.filter((record) => record.draft !== true);
  const drafted = changed.filter((record) => record.draft === true).map((record) => record.id);
  return withDocuments(
    index,
    published.map((record) => ({ ref: record.id, texts: texts(record) })),
    [...removedIds, ...drafted],
  );
}

/** The parts named, taken over from a catalog whose records they describe did not change. */
function pick<K extends keyof Catalog>(catalog: Catalog, keys: readonly K[]): Pick<Catalog, K> {
  return Object.fromEntries(keys.map((key) => [key, catalog[key]])) as Pick<Catalog, K>;
}

function rankBy<T>(records: readonly T[], text: (r: T) => string): Int32Array {
  const order = records.map((_, i) => i).sort((a, b) => compareTitles(text(records[a] as T), text(records[b] as T)));
  const rank = new Int32Array(records.length);
  order.forEach((position, r) => (rank[position] = r));
  return rank;
}

/**
 * The index, and where each of its documents is among the records: read from the ids' digest when
 * the records are not parsed yet (the build indexes record i as document i), found from the
 * records' ids otherwise.
 */
function indexed(source: PostingsLayout | SearchIndex, records: Records<{ id: string }, unknown>): IndexedSearch {
  const index = 'scratch' in source ? source : loadSearchIndex(source);
  const inOrder = records.ids !== undefined && index.refs.length === records.summaries.length && records.ids === idsDigest(index.refs);
  if (inOrder) return { index, positions: Int32Array.from(index.refs, (_, i) => i) };
  return { index, positions: positionsOfRefs(index.refs, records.all()) };
}
