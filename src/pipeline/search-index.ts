/**
 * Stage 4: the search indexes of deals and startups. Each is written twice: as lunr's own
 * serialization (`lunr.Index#toJSON`, what `generated/search-index.json` holds, for anyone
 * loading it with `lunr.Index.load`) and as the postings the runtime searches (typed arrays,
 * src/catalog/search.ts `PostingsLayout`), with the statistics a write needs to index a changed
 * record in place.
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
import { fieldWeight, runStarts, termIdf, type PostingsLayout } from '../catalog/search.ts';

/**
 * An index as the runtime loads it and as lunr serializes it, as the build (or a worker thread,
 * index-in-worker.ts) makes it: the postings, and each sorted term's lunr `_index`, from which
 * lunr's JSON is made as it is written (`lunrJsonChunks`): never one string of it all (at
 * 150,000 records lunr's index is 196 MB, which as a string held the build at 1.7 GB), and never
 * all of it in memory at once (as chunks kept from the indexing to the writing, it was 196 MB of
 * the build's peak).
 */
export interface BuiltIndex {
  /** The postings, with the statistics a write needs to index a changed record in place. */
  postings: PostingsLayout;
  /** Each sorted term's lunr `_index`: what `lunrJsonChunks` needs beside the postings. */
  termIndexes: Int32Array;
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
 * boost, lunr's k1 1.2 and b 0.75), as postings and JSON text. For records with unique
 * ids (the build refuses duplicates) and fields named as DEAL_FIELDS and STARTUP_FIELDS are:
 * at least one, none named `_index`, like an array index or like an Object.prototype member,
 * where lunr's own objects would order or count differently.
 * @example buildIndex({ title: 10 }, [{ id: 'd-1' }], () => ['Cloud credits']).postings.terms // ['cloud', 'credit']
 */
export function buildIndex<T extends { id: string }>(fields: Record<string, number>, records: readonly T[], texts: (record: T) => string[]): BuiltIndex {
  const names = Object.keys(fields);
  const fieldCount = names.length;
  const collected = collectTerms(fieldCount, records, texts);
  const termCount = collected.names.length;
  // The layout goes by term in sorted order; lunr's `_index` is the term index (first seen first).
  const termIndexes = Int32Array.from({ length: termCount }, (_, term) => term).sort((a, b) => compareCodeUnits(collected.names[a] as string, collected.names[b] as string));
  const rank = new Int32Array(termCount);
  termIndexes.forEach((term, position) => (rank[term] = position));
  const counts = collected.counts.values;
  const starts = new Int32Array(termCount * fieldCount + 1);
  for (let term = 0; term < termCount; term++) {
    for (let field = 0; field < fieldCount; field++) starts[(rank[term] as number) * fieldCount + field + 1] = counts[term * fieldCount + field] as number;
  }
  runStarts(starts);
  const postings: PostingsLayout = {
    refs: records.map((record) => record.id),
    terms: Array.from(termIndexes, (term) => collected.names[term] as string),
    stats: {
      fields: names,
      boosts: names.map((name) => fields[name] ?? 1),
      averageFieldLength: collected.averageFieldLength.map((length) => length || 0),
      documentCount: records.length,
    },
    starts,
    docs: new Int32Array(starts[starts.length - 1] as number),
    weights: new Int32Array(starts[starts.length - 1] as number),
  };
  // Where the next posting of each term and field goes: slots go document by document, so each
  // run's documents come in ascending order.
  const next = starts.slice(0, -1);
  weigh(
    collected,
    names.map((name) => fields[name] || 1),
    records.length,
    (term, field, doc, weight) => {
      const at = (next[(rank[term] as number) * fieldCount + field] as number)++;
      postings.docs[at] = doc;
      postings.weights[at] = weight;
    },
  );
  return { postings, termIndexes };
}

// --- internal ---

/** The search pipeline lunr serializes with the index (the query side stems, as the index did). */
const SEARCH_PIPELINE = ((): string => {
  const pipeline = new lunr.Pipeline();
  pipeline.add(lunr.stemmer);
  return JSON.stringify(pipeline.toJSON());
})();

/**
 * A growing list of 32-bit integers: the build's per-term and per-slot numbers run to millions
 * at 150,000 records, which as JavaScript arrays took twice the memory (docs/performance.md).
 */
class IntList {
  values = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

interface CollectedTerms {
  /** Term texts by term index (lunr's `_index`: the order terms were first seen). */
  names: string[];
  /** By term index × fields + field: how many documents have the term in that field. */
  counts: IntList;
  /** By slot (document × fields + field): where its terms start in the slot lists; one more entry at the end. */
  slotStart: Int32Array;
  /** By slot, each of its distinct terms (first seen first) and how often it occurs there. */
  slotTerm: IntList;
  slotFrequency: IntList;
  /** By slot: how many terms the field's text has, repeats counted. */
  fieldLength: Int32Array;
  averageFieldLength: number[];
}

/** Every document's terms, field by field, in lunr's order (documents as given, fields as named). */
function collectTerms<T>(fieldCount: number, records: readonly T[], texts: (record: T) => string[]): CollectedTerms {
  const termIndex = new Map<string, number>();
  const stems = new Map<string, string | null>();
  const slots = records.length * fieldCount;
  const collected: CollectedTerms = {
    names: [],
    counts: new IntList(),
    slotStart: new Int32Array(slots + 1),
    slotTerm: new IntList(),
    slotFrequency: new IntList(),
    fieldLength: new Int32Array(slots),
    averageFieldLength: new Array<number>(fieldCount).fill(0),
  };
  const frequency = new Map<number, number>();
  records.forEach((record, doc) => {
    const values = texts(record);
    for (let field = 0; field < fieldCount; field++) {
      const words = fieldTerms(values[field] ?? '', stems);
      frequency.clear();
      for (const word of words) {
        let term = termIndex.get(word);
        if (term === undefined) {
          term = collected.names.push(word) - 1;
          termIndex.set(word, term);
          for (let f = 0; f < fieldCount; f++) collected.counts.push(0);
        }
        const seen = frequency.get(term);
        frequency.set(term, (seen ?? 0) + 1);
        if (seen === undefined) (collected.counts.values[term * fieldCount + field] as number)++;
      }
      for (const [term, count] of frequency) {
        collected.slotTerm.push(term);
        collected.slotFrequency.push(count);
      }
      const slot = doc * fieldCount + field;
      collected.slotStart[slot + 1] = collected.slotTerm.length;
      collected.fieldLength[slot] = words.length;
      collected.averageFieldLength[field] = (collected.averageFieldLength[field] as number) + words.length;
    }
  });
  collected.averageFieldLength = collected.averageFieldLength.map((total) => total / records.length);
  return collected;
}

/**
 * Each term's weight in each document's field (`fieldWeight`, lunr's BM25 in thousandths), handed
 * to `place` slot by slot (document by document, then field by field).
 */
function weigh(collected: CollectedTerms, boosts: readonly number[], documentCount: number, place: (term: number, field: number, doc: number, weight: number) => void): void {
  const fieldCount = boosts.length;
  const counts = collected.counts.values;
  const idf = collected.names.map((_, term) => {
    let documentsWithTerm = 0;
    for (let field = 0; field < fieldCount; field++) documentsWithTerm += counts[term * fieldCount + field] as number;
    return termIdf(documentsWithTerm, documentCount);
  });
  const { slotStart, fieldLength, averageFieldLength } = collected;
  const slotTerm = collected.slotTerm.values;
  const slotFrequency = collected.slotFrequency.values;
  for (let slot = 0; slot < fieldLength.length; slot++) {
    const field = slot % fieldCount;
    const doc = Math.floor(slot / fieldCount);
    for (let at = slotStart[slot] as number; at < (slotStart[slot + 1] as number); at++) {
      const term = slotTerm[at] as number;
      place(term, field, doc, fieldWeight(idf[term] as number, slotFrequency[at] as number, fieldLength[slot] as number, averageFieldLength[field] as number, boosts[field] as number));
    }
  }
}

/**
 * lunr's serialization of the index whose postings are `layout` (`termIndexes`: each sorted
 * term's lunr `_index`), a MiB at a time: the field vectors (each document's field, its terms'
 * weights as (term index, weight) pairs in term-index order), then the inverted index.
 */
export function* lunrJsonChunks(layout: PostingsLayout, termIndexes: Int32Array): Generator<Buffer> {
  const { refs, starts, docs, weights } = layout;
  const names = layout.stats.fields;
  const fieldCount = names.length;
  const out = new Utf8Chunks();
  out.add(`{"version":${JSON.stringify(lunr.version)},"fields":${JSON.stringify(names)},"fieldVectors":[`);

  // The postings again by slot (document × fields + field). Terms are taken in term-index order,
  // so each slot's terms come in the order lunr's vectors list them.
  const slotStart = new Int32Array(refs.length * fieldCount + 1);
  const runOf = (position: number, field: number): [number, number] => [starts[position * fieldCount + field] as number, starts[position * fieldCount + field + 1] as number];
  for (let position = 0; position < termIndexes.length; position++) {
    for (let field = 0; field < fieldCount; field++) {
      const [from, to] = runOf(position, field);
      for (let at = from; at < to; at++) (slotStart[(docs[at] as number) * fieldCount + field + 1] as number)++;
    }
  }
  runStarts(slotStart);
  const vectorTerm = new Int32Array(docs.length);
  // Thousandths, as the postings keep them; lunr's JSON has the weights themselves.
  const vectorWeight = new Int32Array(docs.length);
  const next = slotStart.slice(0, -1);
  const positionOf = new Int32Array(termIndexes.length);
  termIndexes.forEach((term, position) => (positionOf[term] = position));
  for (let term = 0; term < termIndexes.length; term++) {
    for (let field = 0; field < fieldCount; field++) {
      const [from, to] = runOf(positionOf[term] as number, field);
      for (let at = from; at < to; at++) {
        const slot = (docs[at] as number) * fieldCount + field;
        const into = (next[slot] as number)++;
        vectorTerm[into] = term;
        vectorWeight[into] = weights[at] as number;
      }
    }
  }
  // Each vector's name is `"field/ref"`: the two quoted apart and joined, as JSON quotes the
  // whole (a `/` between them, no surrogate pair can form across). Strings are put together
  // here, not arrays stringified and joined: at 50,000 deals and 100,000 startups both indexes'
  // JSON took about 3.2 s of CPU instead of 4.0 s in the profiles (docs/performance.md,
  // sixteenth sitting).
  const inQuotes = (text: string) => JSON.stringify(text).slice(1, -1);
  const quotedNames = names.map(inQuotes);
  const quotedRefs = refs.map(inQuotes);
  for (let slot = 0; slot + 1 < slotStart.length; slot++) {
    let text = `${slot > 0 ? ',' : ''}["${quotedNames[slot % fieldCount]}/${quotedRefs[Math.floor(slot / fieldCount)]}",[`;
    for (let at = slotStart[slot] as number; at < (slotStart[slot + 1] as number); at++) {
      // A finite number's JSON is its `String`.
      text += `${at > (slotStart[slot] as number) ? ',' : ''}${vectorTerm[at]},${(vectorWeight[at] as number) / 1000}`;
    }
    out.add(`${text}]]`);
    if (out.full) yield out.flush();
  }

  out.add('],"invertedIndex":[');
  const keys = refs.map((id) => `${JSON.stringify(id)}:{}`);
  const numericIds = arrayIndexIds(refs);
  const fieldKeys = names.map((name) => `${JSON.stringify(name)}:{`);
  for (let position = 0; position < termIndexes.length; position++) {
    let text = `${position > 0 ? ',' : ''}[${JSON.stringify(layout.terms[position])},{"_index":${termIndexes[position]}`;
    for (let field = 0; field < fieldCount; field++) {
      const [from, to] = runOf(position, field);
      // Most of a term's fields hold no document: nothing to order or join.
      text += `,${fieldKeys[field]}${from < to ? refKeys(docs.subarray(from, to), keys, numericIds) : ''}}`;
    }
    out.add(`${text}}]`);
    if (out.full) yield out.flush();
  }
  out.add(`],"pipeline":${SEARCH_PIPELINE}}`);
  yield out.flush();
}

/**
 * A posting's documents as the keys of lunr's object (each `{}`), in the order JavaScript gives
 * an object's keys: array-index-like ids (`numericIds`, by document) ascending first, then the
 * others as added.
 * @param keys each document's `"id":{}`, made once
 */
function refKeys(docs: Int32Array, keys: readonly string[], numericIds: ReadonlyMap<number, number> | undefined): string {
  if (!numericIds || !docs.some((doc) => numericIds.has(doc))) {
    let text = keys[docs[0] as number] as string;
    for (let at = 1; at < docs.length; at++) text += `,${keys[docs[at] as number]}`;
    return text;
  }
  const numeric = Array.from(docs)
    .filter((doc) => numericIds.has(doc))
    .sort((a, b) => (numericIds.get(a) as number) - (numericIds.get(b) as number));
  return [...numeric, ...Array.from(docs).filter((doc) => !numericIds.has(doc))].map((doc) => keys[doc]).join(',');
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

/** `Array#sort`'s default order for strings (UTF-16 code units), which `lunr.Index#toJSON` uses. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
