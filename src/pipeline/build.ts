/**
 * The whole content pipeline: parse → validate → derive → index. The same function serves
 * `npm run build`, `npm run check` (without indexing) and the re-index after an admin write.
 */
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
import { buildDealIndex, buildStartupIndex } from './search-index.ts';
import { validateCategories, validateDeals, validateSite, validateStartups, validateSynonyms } from './validate.ts';

export interface BuiltCatalog {
  data: CatalogData;
  /** Serialized lunr indexes (`JSON.stringify` of `lunr.Index#toJSON`), as written to `search-index.json`. */
  lunr: { deals: string; startups: string };
  /** The same indexes as compact postings, which the runtime loads. */
  postings: SearchPostings;
}

export interface PipelineOptions {
  /** Today's date as YYYY-MM-DD, for the passed-expiry warning. */
  today: string;
  /** Skip the search index (for `check`). */
  index?: boolean;
  /** The site's address when `site.yaml` names none: where the server listens (default `http://127.0.0.1:4321`). */
  baseUrl?: string;
}

/** The address `npm start` listens on by default, for content read without a server in view. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4321';

/**
 * Run the pipeline over read sources. `value` is undefined when any error was found.
 * @example const { value, diagnostics } = runPipeline(await readContent('content'), { today: '2026-11-21' })
 */
export function runPipeline(sources: ContentSources, options: PipelineOptions): StageResult<BuiltCatalog | undefined> {
  const diagnostics: Diagnostic[] = [];
  const site = loadDocument(sources.site, `${sources.root}/site.yaml`, (path, data, keyLines) => validateSite(path, data, keyLines, options.baseUrl ?? DEFAULT_BASE_URL), diagnostics);
  const categories = loadDocument(sources.categories, `${sources.root}/categories.yaml`, validateCategories, diagnostics);
  // synonyms.yaml is optional: absent means no synonyms, present means it must be valid.
  const synonyms = sources.synonyms ? loadDocument(sources.synonyms, sources.synonyms.path, validateSynonyms, diagnostics) : undefined;
  const dealEntries = parseAll(sources.deals, diagnostics);
  const startupEntries = parseAll(sources.startups, diagnostics);
  // Entries are checked even when site.yaml or categories.yaml is not valid, so `check` lists
  // every problem in one pass (without categories, the category rules wait for them).
  const validDeals = validateDeals(dealEntries, categories, options.today, site?.freshness.maxAgeDays);
  const validStartups = validateStartups(startupEntries, categories);
  diagnostics.push(...validDeals.diagnostics, ...validStartups.diagnostics);
  if (!site || !categories || hasErrors(diagnostics)) return { value: undefined, diagnostics };

  // Drafts are validated like every record, then kept apart: public outputs are made from `data.deals`/`startups` only.
  const dealRecords = splitDrafts(validDeals.value.map((d) => d.record));
  const startupRecords = splitDrafts(validStartups.value.map((s) => s.record));
  const data: CatalogData = {
    ...deriveCatalog(site, categories, dealRecords.published, startupRecords.published, synonyms),
    drafts: { deals: dealRecords.drafts.sort(compareDeals), startups: startupRecords.drafts.sort(compareStartups) },
  };
  if (options.index === false) {
    const empty = { refs: [], terms: [], postings: [], stats: { fields: [], boosts: [], averageFieldLength: [], documentCount: 0 } };
    return { value: { data, lunr: { deals: '{}', startups: '{}' }, postings: { deals: empty, startups: empty } }, diagnostics };
  }
  const deals = buildDealIndex(data.deals, data.categories);
  const startups = buildStartupIndex(data.startups);
  return { value: { data, lunr: { deals: deals.lunrJson, startups: startups.lunrJson }, postings: { deals: deals.compact, startups: startups.compact } }, diagnostics };
}

// --- internal ---

function parseAll(files: readonly SourceFile[], diagnostics: Diagnostic[]): ParsedEntry[] {
  const entries: ParsedEntry[] = [];
  for (const file of files) {
    const result = parseEntry(file);
    diagnostics.push(...result.diagnostics);
    if (result.value) entries.push(result.value);
  }
  return entries;
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
