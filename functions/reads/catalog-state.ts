/**
 * The catalog a process serves, with the pinned answers for the default lists (computed once
 * per version of the records they list, precompressed). Other answers are kept in the one
 * prepared-answer cache (reads/prepared-cache.ts), by catalog version.
 */
import { createCatalog, type Catalog, type SearchPostings } from '../../src/catalog/catalog.ts';
import { readCatalogFile, type RecordSpans } from '../../src/catalog/record-spans.ts';
import { noDrafts, type Drafts } from '../../src/catalog/drafts.ts';
import { readCatalogFiles, type CatalogFiles } from './catalog-files.ts';
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

/**
 * Load the prebuilt catalog, with its drafts, from `generated/`: from `files` when the caller
 * started reading them already (catalog-files.ts).
 */
export async function loadGeneratedCatalog(generatedDir: string, files: Promise<CatalogFiles> = readCatalogFiles(generatedDir)): Promise<Catalog> {
  const { catalog: file, spans, postings, drafts } = await files;
  const indexes: SearchPostings = 'binary' in postings ? readPostingsFile(postings.binary) : layoutsOfJson(JSON.parse(postings.json) as Record<keyof SearchPostings, JsonPostings>);
  const { data, json, later } = readCatalogFile(file, spans === undefined ? undefined : (JSON.parse(spans) as RecordSpans));
  return createCatalog({ ...data, drafts: drafts === undefined ? noDrafts() : (JSON.parse(drafts) as Drafts) }, indexes, json, later);
}

// --- internal ---

async function precompressInTurn(answers: readonly (Answer | undefined)[]): Promise<void> {
  for (const answer of answers) if (answer) await precompress(answer, 'best').catch(() => undefined);
}

function layoutsOfJson(json: Record<keyof SearchPostings, JsonPostings>): SearchPostings {
  return { deals: layoutOfJson(json.deals), startups: layoutOfJson(json.startups) };
}
