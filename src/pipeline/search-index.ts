/**
 * Stage 4: the search indexes of deals and startups. Each is written twice: as lunr's own
 * serialization (`lunr.Index#toJSON`, what `generated/search-index.json` holds, for anyone
 * loading it with `lunr.Index.load`) and as the compact postings the runtime reads
 * (src/catalog/search.ts), with the statistics a write needs to index a changed record in place.
 *
 * Both are made here in one pass instead of through `lunr.Builder`, whose object per posting,
 * vector splicing and token set (which `toJSON` does not even keep) took a third of the content
 * build and most of its memory: at 50,000 deals and 100,000 startups, 18.3 s of 56.6 s
 * (`node --cpu-prof`, docs/performance.md "Content build"). The terms are lunr's own (its
 * tokenizer and pipeline, `fieldTerms`) and the weights lunr's BM25 with its defaults, in its
 * order of operations; tests/unit/search-index.test.ts checks the output byte for byte against
 * `lunr.Builder` on the starter catalog, a generated one and edge cases.
 */
import lunr from 'lunr';
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import { DEAL_FIELDS, dealFieldTexts, STARTUP_FIELDS, startupFieldTexts } from '../catalog/index-fields.ts';
import { fieldTerms } from '../catalog/tokens.ts';
import { Utf8Chunks } from '../catalog/utf8-chunks.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import { fieldWeight, termIdf, type CompactIndex, type IndexStats } from '../catalog/search.ts';

/** An index as lunr serializes it (JSON text) and as the runtime loads it. */
export interface BuiltIndex {
  /**
   * `JSON.stringify(index.toJSON())` of the same index built by `lunr.Builder`, as UTF-8 chunks
   * of about a MiB, made as the index is: never one string of it all (at 150,000 records lunr's
   * index is 196 MB, which as a string, joined from its pieces and then encoded, held the build
   * at 1.7 GB), and outside the JS heap until the build writes it.
   */
  lunrJson: Buffer[];
  /** The postings, with the statistics a write needs to index a changed record in place. */
  compact: CompactIndex;
}

/**
 * Index deals by id over the `DEAL_FIELDS`; with `categories`, each deal's category is indexed
 * by its human name as well as its slug.
 */
export function buildDealIndex(deals: readonly Deal[], categories?: CategoriesFile): BuiltIndex {
  return buildIndex(DEAL_FIELDS, deals, (deal) => dealFieldTexts(deal, categories));
}

/** Index startups by id over name, category and description. */
export function buildStartupIndex(startups: readonly Startup[]): BuiltIndex {
  return buildIndex(STARTUP_FIELDS, startups, startupFieldTexts);
}

/**
 * What `lunr.Builder` makes of `records` (ref `id`, `fields` with their boosts, no document
 * boost, lunr's k1 1.2 and b 0.75), as JSON text and compact postings. For records with unique
 * ids (the build refuses duplicates) and fields named as DEAL_FIELDS and STARTUP_FIELDS are:
 * at least one, none named `_index`, like an array index or like an Object.prototype member,
 * where lunr's own objects would order or count differently.
 * @example buildIndex({ title: 10 }, [{ id: 'd-1' }], () => ['Cloud credits']).compact.terms // ['cloud', 'credit']
 */
export function buildIndex<T extends { id: string }>(fields: Record<string, number>, records: readonly T[], texts: (record: T) => string[]): BuiltIndex {
  const names = Object.keys(fields);
  const collected = collectTerms(names.length, records, texts);
  const lunrJson: Buffer[] = [];
  const out = new Utf8Chunks();
  const add = (text: string): void => {
    out.add(text);
    if (out.full) lunrJson.push(out.flush());
  };
  add(`{"version":${JSON.stringify(lunr.version)},"fields":${JSON.stringify(names)},"fieldVectors":[`);
  weigh(
    collected,
    names.map((name) => fields[name] || 1),
    records.length,
    (doc, field, elements, slot) => add(`${slot > 0 ? ',' : ''}[${JSON.stringify(`${names[field]}/${(records[doc] as T).id}`)},${JSON.stringify(elements)}]`),
  );
  add('],"invertedIndex":[');
  const sorted = collected.names.map((_, term) => term).sort((a, b) => compareCodeUnits(collected.names[a] as string, collected.names[b] as string));
  const ids = records.map((record) => record.id);
  const keys = ids.map((id) => `${JSON.stringify(id)}:{}`);
  const numericIds = arrayIndexIds(ids);
  sorted.forEach((term, i) => {
    const perField = names.map((name, field) => `${JSON.stringify(name)}:{${refKeys(collected.postings[term]?.[field], keys, numericIds)}}`);
    add(`${i > 0 ? ',' : ''}[${JSON.stringify(collected.names[term])},{"_index":${term},${perField.join(',')}}]`);
  });
  add(`],"pipeline":${SEARCH_PIPELINE}}`);
  lunrJson.push(out.flush());

  const stats: IndexStats = {
    fields: names,
    boosts: names.map((name) => fields[name] ?? 1),
    averageFieldLength: collected.averageFieldLength.map((length) => length || 0),
    documentCount: records.length,
  };
  const compact: CompactIndex = {
    refs: ids,
    terms: sorted.map((term) => collected.names[term] as string),
    postings: sorted.map((term) => compactPostings(collected.postings[term] ?? [])),
    stats,
  };
  return { lunrJson, compact };
}

// --- internal ---

/** The search pipeline lunr serializes with the index (the query side stems, as the index did). */
const SEARCH_PIPELINE = ((): string => {
  const pipeline = new lunr.Pipeline();
  pipeline.add(lunr.stemmer);
  return JSON.stringify(pipeline.toJSON());
})();

/** One term in one field: the documents (positions) in order, and their weights once computed. */
interface Posting {
  docs: number[];
  weights: number[];
}

interface CollectedTerms {
  /** Term texts by term index (lunr's `_index`: the order terms were first seen). */
  names: string[];
  /** By term index, by field: where the term occurs. */
  postings: (Posting | undefined)[][];
  /** By slot (document × fields + field): where its terms start in the slot arrays; one more entry at the end. */
  slotStart: number[];
  slotTerm: number[];
  slotFrequency: number[];
  /** By slot: how many terms the field's text has, repeats counted. */
  fieldLength: number[];
  averageFieldLength: number[];
}

/** Every document's terms, field by field, in lunr's order (documents as given, fields as named). */
function collectTerms<T>(fieldCount: number, records: readonly T[], texts: (record: T) => string[]): CollectedTerms {
  const termIndex = new Map<string, number>();
  const stems = new Map<string, string | null>();
  const collected: CollectedTerms = { names: [], postings: [], slotStart: [0], slotTerm: [], slotFrequency: [], fieldLength: [], averageFieldLength: new Array<number>(fieldCount).fill(0) };
  records.forEach((record, doc) => {
    const values = texts(record);
    for (let field = 0; field < fieldCount; field++) {
      const words = fieldTerms(values[field] ?? '', stems);
      const frequency = new Map<number, number>();
      for (const word of words) {
        let term = termIndex.get(word);
        if (term === undefined) {
          term = collected.names.push(word) - 1;
          termIndex.set(word, term);
          collected.postings.push(new Array<Posting | undefined>(fieldCount).fill(undefined));
        }
        const seen = frequency.get(term);
        frequency.set(term, (seen ?? 0) + 1);
        if (seen === undefined) {
          const perField = collected.postings[term] as (Posting | undefined)[];
          (perField[field] ??= { docs: [], weights: [] }).docs.push(doc);
        }
      }
      for (const [term, count] of frequency) {
        collected.slotTerm.push(term);
        collected.slotFrequency.push(count);
      }
      collected.slotStart.push(collected.slotTerm.length);
      collected.fieldLength.push(words.length);
      collected.averageFieldLength[field] = (collected.averageFieldLength[field] as number) + words.length;
    }
  });
  collected.averageFieldLength = collected.averageFieldLength.map((total) => total / records.length);
  return collected;
}

/**
 * lunr's field vectors, handed to `vector` one at a time, in slot order: for each document's
 * field, its terms' weights (`fieldWeight`, lunr's BM25 to the float) as (term index, weight)
 * pairs in term-index order. Each weight also goes to its posting: slots go document by
 * document, so a posting's weights line up with its documents.
 */
function weigh(collected: CollectedTerms, boosts: readonly number[], documentCount: number, vector: (doc: number, field: number, elements: number[], slot: number) => void): void {
  const fieldCount = boosts.length;
  const idf = collected.postings.map((perField) =>
    termIdf(
      perField.reduce((sum, posting) => sum + (posting ? posting.docs.length : 0), 0),
      documentCount,
    ),
  );
  collected.fieldLength.forEach((fieldLength, slot) => {
    const field = slot % fieldCount;
    const start = collected.slotStart[slot] as number;
    const order = Array.from({ length: (collected.slotStart[slot + 1] as number) - start }, (_, i) => start + i);
    order.sort((a, b) => (collected.slotTerm[a] as number) - (collected.slotTerm[b] as number));
    const elements: number[] = [];
    for (const at of order) {
      const term = collected.slotTerm[at] as number;
      const tf = collected.slotFrequency[at] as number;
      const weight = fieldWeight(idf[term] as number, tf, fieldLength, collected.averageFieldLength[field] as number, boosts[field] as number);
      elements.push(term, weight);
      (collected.postings[term]?.[field] as Posting).weights.push(weight);
    }
    vector(Math.floor(slot / fieldCount), field, elements, slot);
  });
}

/**
 * A posting's documents as the keys of lunr's object (each `{}`), in the order JavaScript gives
 * an object's keys: array-index-like ids (`numericIds`, by document) ascending first, then the
 * others as added.
 * @param keys each document's `"id":{}`, made once
 */
function refKeys(posting: Posting | undefined, keys: readonly string[], numericIds: ReadonlyMap<number, number> | undefined): string {
  if (!posting) return '';
  if (!numericIds || !posting.docs.some((doc) => numericIds.has(doc))) return posting.docs.map((doc) => keys[doc]).join(',');
  const numeric = posting.docs.filter((doc) => numericIds.has(doc)).sort((a, b) => (numericIds.get(a) as number) - (numericIds.get(b) as number));
  return [...numeric, ...posting.docs.filter((doc) => !numericIds.has(doc))].map((doc) => keys[doc]).join(',');
}

/** The documents whose ids JavaScript orders as array indices, with their number; none when no id is one. */
function arrayIndexIds(ids: readonly string[]): Map<number, number> | undefined {
  const found = new Map<number, number>();
  ids.forEach((id, doc) => {
    if (isArrayIndex(id)) found.set(doc, Number(id));
  });
  return found.size ? found : undefined;
}

const isArrayIndex = (key: string): boolean => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4294967295;

/** `compactIndex`'s triples for one term: fields in the order the term was first met (by document, then field). */
function compactPostings(perField: readonly (Posting | undefined)[]): [number, number[], number[]][] {
  const present: [number, Posting][] = [];
  perField.forEach((posting, field) => {
    if (posting) present.push([field, posting]);
  });
  present.sort(([fieldA, a], [fieldB, b]) => (a.docs[0] as number) - (b.docs[0] as number) || fieldA - fieldB);
  return present.map(([field, posting]) => [field, posting.docs, posting.weights]);
}

/** `Array#sort`'s default order for strings (UTF-16 code units), which `lunr.Index#toJSON` uses. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
