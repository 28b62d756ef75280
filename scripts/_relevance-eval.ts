/**
 * The relevance evaluation behind `npm run eval:search` and tests/unit/search-relevance.test.ts
 * (issue 13, item 5): the judged queries run through our search path exactly as the API answers
 * `GET /api/v1/deals?search=…&scope=all&status=all&limit=10`, and through a MiniSearch baseline
 * over the same deals, each scored with the same metrics.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { parse } from 'yaml';
import type { Catalog } from '../src/catalog/catalog.ts';
import { listDeals } from '../src/catalog/deals-query.ts';
import type { Deal } from '../src/schemas/deal.ts';
import { DEAL_LIST_PARAMS, parseQuery } from '../src/schemas/query.ts';
import { buildCatalog } from './_build-steps.ts';
import { mean, ndcgAt, reciprocalRank, successAt, type Judgments } from './_relevance-metrics.ts';

/** The repository root, from this file's place in `scripts/`. */
export const ROOT = join(import.meta.dirname, '..');
/** The judged set and the recorded floors. */
export const JUDGED_QUERIES = join(ROOT, 'tests/relevance/judged-queries.yaml');
export const FLOOR_FILE = join(ROOT, 'tests/relevance/floor.json');

/** One judged query as written in the YAML file. */
export interface JudgedQuery {
  query: string;
  kind: string;
  /** Slug → grade (2 exact, 1 acceptable); empty when the catalog has no answer. */
  relevant: Judgments;
}

/** A search engine under evaluation: a query in, slugs out, best first, at most 10. */
export type Engine = (query: string) => string[];

/** What one engine scored on the whole set. */
export interface Scores {
  /** Share of answerable queries with a relevant deal in the top 5. */
  successAt5: number;
  mrr: number;
  ndcgAt10: number;
  /** Share of answerable queries that returned nothing. */
  zeroResultRate: number;
  /** Share of no-answer queries that returned nothing. */
  noAnswerPrecision: number;
  answerable: number;
  noAnswer: number;
}

/** One query's outcome for one engine. */
export interface QueryRun {
  judged: JudgedQuery;
  ranked: string[];
  /** Whether the query counts as passed: a relevant deal in the top 5, or nothing for a no-answer query. */
  passed: boolean;
}

/** The full evaluation: each engine's scores and per-query runs. */
export interface Evaluation {
  queries: number;
  ours: { scores: Scores; runs: QueryRun[] };
  minisearch: { scores: Scores; runs: QueryRun[] };
}

/** Results per query, as the API's `limit=10` would return them. */
export const RESULTS = 10;

/**
 * Read and check the judged set: every query non-empty and unique, every slug a real deal, grades 1 or 2.
 * @example loadJudgedQueries(JUDGED_QUERIES, new Set(catalog.deals.map((d) => d.slug)))
 */
export function loadJudgedQueries(file: string, slugs: ReadonlySet<string>): JudgedQuery[] {
  const raw = parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a list of queries`);
  const seen = new Set<string>();
  return raw.map((entry: unknown, i): JudgedQuery => {
    const { query, kind, relevant } = (entry ?? {}) as Partial<JudgedQuery>;
    const where = `${file} entry ${i + 1}`;
    if (typeof query !== 'string' || query.trim() === '') throw new Error(`${where}: query must be a non-empty string`);
    if (seen.has(query)) throw new Error(`${where}: duplicate query "${query}"`);
    seen.add(query);
    if (typeof relevant !== 'object' || relevant === null) throw new Error(`${where}: relevant must be a map of slug → grade`);
    for (const [slug, grade] of Object.entries(relevant)) {
      // A judgment naming a renamed or deleted deal would silently count as a miss.
      if (!slugs.has(slug)) throw new Error(`${where} ("${query}"): no deal has slug ${slug}`);
      if (grade !== 1 && grade !== 2) throw new Error(`${where} ("${query}"): grade of ${slug} must be 1 or 2`);
    }
    return { query, kind: typeof kind === 'string' ? kind : 'unspecified', relevant };
  });
}

/**
 * Our engine: the query string parsed and answered by the same functions as `GET /api/v1/deals`
 * (functions/reads/deals.ts), with every scope and status so programs and expired deals count.
 * @example ourEngine(catalog)('free aws credits')
 */
export function ourEngine(catalog: Catalog): Engine {
  return (search) => {
    const params = new URLSearchParams({ search, scope: 'all', status: 'all', limit: String(RESULTS) });
    const parsed = parseQuery(DEAL_LIST_PARAMS, params);
    if (!parsed.ok) throw new Error(`the API would refuse search=${JSON.stringify(search)}: ${JSON.stringify(parsed.problem)}`);
    return listDeals(catalog, parsed.value).positions.map((p) => (catalog.deals[p] as Deal).slug);
  };
}

/**
 * The baseline named in issue 13: MiniSearch 7 over the same deals, any word (OR), prefix,
 * fuzzy 0.2, boosts title 3, provider 2, tags and category 1.5, description 1.
 * @example minisearchEngine(catalog.deals, catalog)('mongo db')
 */
export function minisearchEngine(deals: readonly Deal[], catalog: Pick<Catalog, 'categories'>): Engine {
  const categoryName = new Map(catalog.categories.deals.map((c) => [c.slug, c.name]));
  const engine = new MiniSearch<BaselineDoc>({
    fields: ['title', 'provider', 'tags', 'category', 'description'],
    storeFields: ['slug'],
    searchOptions: { combineWith: 'OR', prefix: true, fuzzy: 0.2, boost: { title: 3, provider: 2, tags: 1.5, category: 1.5, description: 1 } },
  });
  engine.addAll(
    deals.map((deal) => ({
      id: deal.id,
      slug: deal.slug,
      title: deal.title,
      provider: deal.provider,
      tags: (deal.tags ?? []).join(' '),
      // The category as people name it and as it is coded, with the subcategory: what a filter shows.
      category: [categoryName.get(deal.category) ?? '', deal.category, deal.subcategory ?? ''].join(' '),
      // Every other text a reader sees on the deal's page, so the baseline is not starved of words ours indexes.
      description: [deal.shortDescription, deal.value, deal.savings, ...(deal.eligibility ?? []), deal.description].filter(Boolean).join('\n'),
    })),
  );
  return (query) =>
    engine
      .search(query)
      .slice(0, RESULTS)
      .map((hit) => hit.slug as string);
}

/**
 * Run every judged query through one engine and score it.
 * @example scoreEngine(queries, ourEngine(catalog)).scores.ndcgAt10
 */
export function scoreEngine(queries: readonly JudgedQuery[], engine: Engine): { scores: Scores; runs: QueryRun[] } {
  const runs = queries.map((judged): QueryRun => {
    const ranked = engine(judged.query).slice(0, RESULTS);
    const passed = isNoAnswer(judged) ? ranked.length === 0 : successAt(ranked, judged.relevant, 5) === 1;
    return { judged, ranked, passed };
  });
  const answerable = runs.filter((r) => !isNoAnswer(r.judged));
  const noAnswer = runs.filter((r) => isNoAnswer(r.judged));
  const scores: Scores = {
    successAt5: mean(answerable.map((r) => successAt(r.ranked, r.judged.relevant, 5))),
    mrr: mean(answerable.map((r) => reciprocalRank(r.ranked, r.judged.relevant))),
    ndcgAt10: mean(answerable.map((r) => ndcgAt(r.ranked, r.judged.relevant, 10))),
    zeroResultRate: mean(answerable.map((r) => (r.ranked.length === 0 ? 1 : 0))),
    noAnswerPrecision: mean(noAnswer.map((r) => (r.ranked.length === 0 ? 1 : 0))),
    answerable: answerable.length,
    noAnswer: noAnswer.length,
  };
  return { scores, runs };
}

/**
 * The whole evaluation over a content tree: build, load the judged set, score both engines.
 * @example const { ours, minisearch } = await evaluate()
 */
export async function evaluate(contentDir = join(ROOT, 'content'), queriesFile = JUDGED_QUERIES, today = new Date().toISOString().slice(0, 10)): Promise<Evaluation> {
  const catalog = await buildCatalog(contentDir, today);
  const queries = loadJudgedQueries(queriesFile, new Set(catalog.deals.map((d) => d.slug)));
  return {
    queries: queries.length,
    ours: scoreEngine(queries, ourEngine(catalog)),
    minisearch: scoreEngine(queries, minisearchEngine(catalog.deals, catalog)),
  };
}

/** Metrics a floor can be recorded for, with their names in `floor.json`. */
export const FLOORED = ['successAt5', 'mrr', 'ndcgAt10'] as const;

/** The recorded floors (tests/relevance/floor.json). */
export type Floors = Record<(typeof FLOORED)[number], number>;

/**
 * Read the floors our engine must not drop below.
 * @example readFloors().successAt5
 */
export function readFloors(file = FLOOR_FILE): Floors {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const floors = {} as Floors;
  for (const name of FLOORED) {
    const value = raw[name];
    if (typeof value !== 'number' || value < 0 || value > 1) throw new Error(`${file}: ${name} must be a number between 0 and 1`);
    floors[name] = value;
  }
  return floors;
}

/** A no-answer query: judged to have nothing relevant in the catalog. */
export function isNoAnswer(judged: JudgedQuery): boolean {
  return Object.keys(judged.relevant).length === 0;
}

// --- internal ---

interface BaselineDoc {
  id: string;
  slug: string;
  title: string;
  provider: string;
  tags: string;
  category: string;
  description: string;
}
