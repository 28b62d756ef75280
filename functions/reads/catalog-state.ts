/**
 * The catalog a process serves, with the pinned answers for the default lists (computed once
 * per version of the records they list, precompressed). Other answers are kept in the one
 * prepared-answer cache (reads/prepared-cache.ts), by catalog version.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCatalog, type Catalog, type SearchPostings } from '../../src/catalog/catalog.ts';
import { readCatalogFile, type RecordSpans } from '../../src/catalog/record-spans.ts';
import { noDrafts, type Drafts } from '../../src/catalog/drafts.ts';
import { CATALOG_FILE, DRAFTS_FILE, RECORD_SPANS_FILE, SEARCH_POSTINGS_FILE, SEARCH_POSTINGS_JSON_FILE } from '../../src/pipeline/emit.ts';
import { layoutOfJson, readPostingsFile, type JsonPostings } from '../../src/catalog/postings-file.ts';
import { forKeeping, precompress, type Answer } from '../http/answer.ts';

export interface CatalogState {
  catalog: Catalog;
  /** The answer of a pinned route (by cache key), computed on first use. */
  pinned: (key: string) => Answer | undefined;
  /**
   * Compute every pinned answer now, and compress them at the best level, one answer and one
   * coding at a time. The server calls it for its first catalog once it listens; after a
   * write, pinned answers are computed when first asked for, and compressed fast.
   */
  prepare: () => Promise<void>;
}

/** Compute an answer for a route and query string; used for pinning and caching alike. */
export type AnswerFor = (catalog: Catalog, params: URLSearchParams) => Answer;

/** A route whose answer without a query string is kept for as long as the records it lists. */
export interface Pin {
  key: string;
  compute: AnswerFor;
  /** The records the answer depends on: while they are the same object, so is the answer. */
  source: (catalog: Catalog) => object;
}

/** Pinned answers by the record array they were computed from, shared across versions. */
const pinnedBySource = new WeakMap<object, Map<string, Answer>>();

/**
 * Wrap a catalog with its answers. Pinned answers are computed when first asked for (or by
 * `prepare`), and a deals-only write keeps the startups answer.
 * @example createCatalogState(catalog, pins)
 */
export function createCatalogState(catalog: Catalog, pins: readonly Pin[]): CatalogState {
  let preparing = false;
  const byKey = new Map(pins.map((pin) => [pin.key, pin]));
  const pinned = (key: string): Answer | undefined => {
    const pin = byKey.get(key);
    if (!pin) return undefined;
    const source = pin.source(catalog);
    let answers = pinnedBySource.get(source);
    if (!answers) pinnedBySource.set(source, (answers = new Map()));
    let answer = answers.get(key);
    if (!answer) {
      answer = forKeeping(pin.compute(catalog, new URLSearchParams()));
      answers.set(key, answer);
      if (!preparing) void precompress(answer, 'fast').catch(() => undefined);
    }
    return answer;
  };
  // Compressed one answer and one coding at a time: at 50,000 deals the four jobs at once took
  // both cores for seconds while the server was still starting. A failed compression stays in
  // the answer, for the request asking for that coding to report.
  const prepare = (): Promise<void> => {
    preparing = true;
    return precompressInTurn(pins.map((pin) => pinned(pin.key)));
  };
  return { catalog, pinned, prepare };
}

/** Load the prebuilt catalog, with its drafts, from `generated/`. */
export async function loadGeneratedCatalog(generatedDir: string): Promise<Catalog> {
  const [file, spans, indexes, drafts] = await Promise.all([
    readFile(join(generatedDir, CATALOG_FILE)),
    // A build from before spans existed has none: the records are serialised here instead.
    readJson<RecordSpans | undefined>(join(generatedDir, RECORD_SPANS_FILE), undefined),
    readPostings(generatedDir),
    // A build from before drafts existed has no drafts file: no drafts.
    readJson<Drafts>(join(generatedDir, DRAFTS_FILE), noDrafts()),
  ]);
  const { data, json } = readCatalogFile(file, spans);
  return createCatalog({ ...data, drafts }, indexes, json);
}

// --- internal ---

async function precompressInTurn(answers: readonly (Answer | undefined)[]): Promise<void> {
  for (const answer of answers) if (answer) await precompress(answer, 'best').catch(() => undefined);
}

/** The search postings: the binary file, or the JSON postings of a build from before it. */
async function readPostings(generatedDir: string): Promise<SearchPostings> {
  const file = await readFile(join(generatedDir, SEARCH_POSTINGS_FILE)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (file) return readPostingsFile(file);
  const json = await readJson<Record<keyof SearchPostings, JsonPostings>>(join(generatedDir, SEARCH_POSTINGS_JSON_FILE));
  return { deals: layoutOfJson(json.deals), startups: layoutOfJson(json.startups) };
}

/** A JSON file's value; `missing` (when given) for a file that does not exist. */
async function readJson<T>(path: string, ...missing: [T?]): Promise<T> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && missing.length > 0) return missing[0] as T;
    throw error;
  }
}
