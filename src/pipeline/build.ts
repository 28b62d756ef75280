/**
 * The whole content pipeline: parse → validate → derive → index. The same steps serve
 * `npm run build`, `npm run check` (without indexing) and the re-index after an admin write;
 * the build and `check` parse and validate big catalogs in worker threads (`runPipelineOnCores`),
 * and the build indexes their deals in one more.
 */
import { availableParallelism } from 'node:os';
import type { CatalogData, SearchPostings } from '../catalog/catalog.ts';
import { splitDrafts } from '../catalog/drafts.ts';
import { compareDeals, compareStartups } from '../catalog/order.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import type { Site } from '../schemas/site.ts';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import { deriveCatalog } from './derive.ts';
import { hasErrors, type Diagnostic, type StageResult } from './diagnostics.ts';
import { parseEntry, parseYamlFile, type ParsedEntry, type SourceFile } from './parse.ts';
import type { ContentSources } from './read-content.ts';
import { buildDealIndex, buildStartupIndex, type BuiltIndex } from './search-index.ts';
import { buildIndexInWorker } from './index-in-worker.ts';
import { DEAL_FIELDS, dealFieldTexts } from '../catalog/index-fields.ts';
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import { checkInWorkers } from './check-in-workers.ts';
import { validateCategories, validateDeals, validateSite, validateStartups, validateSynonyms, type RuleContext } from './validate.ts';

export interface BuiltCatalog {
  data: CatalogData;
  /** The search indexes as the postings the runtime searches (catalog/search.ts `PostingsLayout`). */
  postings: SearchPostings;
  /** Each index's sorted terms' lunr `_index`: with the postings, what lunr's JSON (`search-index.json`) is made of (`lunrJsonChunks`). */
  termIndexes: { deals: Int32Array; startups: Int32Array };
}

export interface PipelineOptions {
  /** Today's date as YYYY-MM-DD, for the passed-expiry warning. */
  today: string;
  /** Skip the search index (for `check`). */
  index?: boolean;
  /** The site's address when `site.yaml` names none: where the server listens (default `http://127.0.0.1:4321`). */
  baseUrl?: string;
}

/** Entries from which checking them in worker threads pays: below, starting the workers (about 0.3 s) costs more than they save. */
const WORKERS_FROM_ENTRIES = 4000;
/** Most worker threads a build checks files in: each holds its own heap of some tens of MB. */
const MOST_WORKERS = 4;

/**
 * How many worker threads `runPipelineInWorkers` should use for these sources on this machine:
 * 0 (check in this thread, `runPipeline`) for small catalogs or a single core.
 * @example const workers = pipelineWorkers(sources) // 2 for 150,000 files on two cores
 */
export function pipelineWorkers(sources: ContentSources, cores = availableParallelism()): number {
  return cores < 2 || sources.deals.length + sources.startups.length < WORKERS_FROM_ENTRIES ? 0 : Math.min(cores, MOST_WORKERS);
}

/** The address `npm start` listens on by default, for content read without a server in view. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4321';

/**
 * Run the pipeline over read sources. `value` is undefined when any error was found.
 * @example const { value, diagnostics } = runPipeline(await readContent('content'), { today: '2026-11-21' })
 */
export function runPipeline(sources: ContentSources, options: PipelineOptions): StageResult<BuiltCatalog | undefined> {
  const diagnostics: Diagnostic[] = [];
  const settings = readSettings(sources, options, diagnostics);
  // Entries are checked even when site.yaml or categories.yaml is not valid, so `check` lists
  // every problem in one pass (without categories, the category rules wait for them). Files
  // are read, parsed and validated one at a time, each text and parsed front matter let go as
  // soon as its record is made: at 150,000 files they are hundreds of MB that would otherwise be
  // held at once.
  const { categories, today, maxAgeDays } = settings.rules;
  const deals = validRecords(validateDeals(parsedEntries(sources.deals, diagnostics), categories, today, maxAgeDays), diagnostics);
  const startups = validRecords(validateStartups(parsedEntries(sources.startups, diagnostics), categories), diagnostics);
  return completed(settings, deals, startups, diagnostics, options);
}

/**
 * `runPipeline` with the entries parsed and checked in `workers` worker threads
 * (check-in-workers.ts), for big catalogs: the same result and the same diagnostics in the same
 * order, in about half the time on two cores (docs/performance.md).
 * @example const { value } = await runPipelineInWorkers(await readContent('content'), { today: '2026-11-29' }, 2)
 */
export async function runPipelineInWorkers(sources: ContentSources, options: PipelineOptions, workers: number): Promise<StageResult<BuiltCatalog | undefined>> {
  const diagnostics: Diagnostic[] = [];
  const settings = readSettings(sources, options, diagnostics);
  const checked = await checkInWorkers(sources, settings.rules, workers);
  const deals = validRecords(checked.deals, diagnostics);
  const startups = validRecords(checked.startups, diagnostics);
  return completedOnCores(settings, deals, startups, diagnostics, options);
}

/**
 * The pipeline as the build and `check` run it: in worker threads when the catalog is big and
 * the machine has cores to spare (`pipelineWorkers`), else in this thread.
 * @example const { value, diagnostics } = await runPipelineOnCores(await readContent('content'), { today: '2026-11-29' })
 */
export async function runPipelineOnCores(sources: ContentSources, options: PipelineOptions): Promise<StageResult<BuiltCatalog | undefined>> {
  const workers = pipelineWorkers(sources);
  return workers > 0 ? runPipelineInWorkers(sources, options, workers) : runPipeline(sources, options);
}

// --- internal ---

interface Settings {
  site: Site | undefined;
  categories: CategoriesFile | undefined;
  synonyms: SynonymsFile | undefined;
  /** What the entries' rules need from them. */
  rules: RuleContext;
}

/** site.yaml, categories.yaml and synonyms.yaml, each validated; the problems go to `diagnostics`. */
function readSettings(sources: ContentSources, options: PipelineOptions, diagnostics: Diagnostic[]): Settings {
  const site = loadDocument(sources.site, `${sources.root}/site.yaml`, (path, data, keyLines) => validateSite(path, data, keyLines, options.baseUrl ?? DEFAULT_BASE_URL), diagnostics);
  const categories = loadDocument(sources.categories, `${sources.root}/categories.yaml`, validateCategories, diagnostics);
  // synonyms.yaml is optional: absent means no synonyms, present means it must be valid.
  const synonyms = sources.synonyms ? loadDocument(sources.synonyms, sources.synonyms.path, validateSynonyms, diagnostics) : undefined;
  return { site, categories, synonyms, rules: { categories, today: options.today, maxAgeDays: site?.freshness.maxAgeDays } };
}

/** The catalog from valid records: drafts apart, derived data, and the search indexes unless `index` is false. */
function completed(settings: Settings, deals: Deal[], startups: Startup[], diagnostics: Diagnostic[], options: PipelineOptions): StageResult<BuiltCatalog | undefined> {
  const { site, categories, synonyms } = settings;
  if (!site || !categories || hasErrors(diagnostics)) return { value: undefined, diagnostics };
  const data = catalogData(site, categories, synonyms, deals, startups);
  if (options.index === false) return { value: withoutIndexes(data), diagnostics };
  return { value: withIndexes(data, buildDealIndex(data.deals, data.categories), buildStartupIndex(data.startups)), diagnostics };
}

/**
 * `completed` with the deals' index built in a worker thread (index-in-worker.ts) while this
 * thread derives the catalog and indexes the startups: after the check workers, this part of a
 * big build otherwise ran on one core.
 */
async function completedOnCores(settings: Settings, deals: Deal[], startups: Startup[], diagnostics: Diagnostic[], options: PipelineOptions): Promise<StageResult<BuiltCatalog | undefined>> {
  const { site, categories, synonyms } = settings;
  if (!site || !categories || hasErrors(diagnostics) || options.index === false) return completed(settings, deals, startups, diagnostics, options);
  // The published deals in the catalog's order, as `deriveCatalog` will sort them: the order
  // ends on the slug, which is unique, so sorting the same records again gives the same list.
  const dealIndex = buildIndexInWorker(DEAL_FIELDS, splitDrafts(deals).published.sort(compareDeals), (deal) => dealFieldTexts(deal, categories));
  // Handled even if this thread throws before awaiting it (the worker's error is then moot).
  dealIndex.catch(() => undefined);
  const data = catalogData(site, categories, synonyms, deals, startups);
  const startupIndex = buildStartupIndex(data.startups);
  const built = await dealIndex;
  if (built.postings.refs.some((id, doc) => id !== data.deals[doc]?.id) || built.postings.refs.length !== data.deals.length) {
    throw new Error("the deals' index was built in another order than the catalog's");
  }
  return { value: withIndexes(data, built, startupIndex), diagnostics };
}

/** Drafts apart (validated like every record, kept out of every public output), and the derived catalog. */
function catalogData(site: Site, categories: CategoriesFile, synonyms: SynonymsFile | undefined, deals: Deal[], startups: Startup[]): CatalogData {
  const dealRecords = splitDrafts(deals);
  const startupRecords = splitDrafts(startups);
  return {
    ...deriveCatalog(site, categories, dealRecords.published, startupRecords.published, synonyms),
    drafts: { deals: dealRecords.drafts.sort(compareDeals), startups: startupRecords.drafts.sort(compareStartups) },
  };
}

function withIndexes(data: CatalogData, deals: BuiltIndex, startups: BuiltIndex): BuiltCatalog {
  return { data, postings: { deals: deals.postings, startups: startups.postings }, termIndexes: { deals: deals.termIndexes, startups: startups.termIndexes } };
}

/** The catalog for `check`, which builds no index. */
function withoutIndexes(data: CatalogData): BuiltCatalog {
  const empty = {
    refs: [],
    terms: [],
    stats: { fields: [], boosts: [], averageFieldLength: [], documentCount: 0 },
    starts: new Int32Array(1),
    docs: new Int32Array(0),
    weights: new Int32Array(0),
  };
  return { data, postings: { deals: empty, startups: empty }, termIndexes: { deals: new Int32Array(0), startups: new Int32Array(0) } };
}

/** The records of entries that passed validation; the problems go to `diagnostics`. */
function validRecords<T>(result: StageResult<{ record: T }[]>, diagnostics: Diagnostic[]): T[] {
  for (const diagnostic of result.diagnostics) diagnostics.push(diagnostic);
  return result.value.map((valid) => valid.record);
}

/** Each file parsed as it is taken (files read lazily stay unread until then); the problems go to `diagnostics`. */
function* parsedEntries(files: Iterable<SourceFile>, diagnostics: Diagnostic[]): Generator<ParsedEntry> {
  for (const file of files) {
    const result = parseEntry(file);
    diagnostics.push(...result.diagnostics);
    if (result.value) yield result.value;
  }
}

function loadDocument<T extends Site | CategoriesFile | SynonymsFile>(
  file: SourceFile | undefined,
  expectedPath: string,
  validate: (path: string, data: unknown, keyLines: Map<string, number>) => StageResult<T | undefined>,
  diagnostics: Diagnostic[],
): T | undefined {
  if (!file) {
    diagnostics.push({ severity: 'error', code: 'missing_file', file: expectedPath, message: 'file is missing' });
    return undefined;
  }
  const parsed = parseYamlFile(file);
  diagnostics.push(...parsed.diagnostics);
  if (!parsed.value) return undefined;
  const result = validate(file.path, parsed.value.data, parsed.value.keyLines);
  diagnostics.push(...result.diagnostics);
  return result.value;
}
