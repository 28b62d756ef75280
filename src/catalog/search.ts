/**
 * Query evaluation over a serialized lunr index. It reads lunr's postings and BM25 field
 * weights directly instead of calling `lunr.Index#query`, which allocates per posting and took
 * milliseconds on 5,000 deals. Semantics (DESIGN "search syntax"): every word must match (AND),
 * stemmed and case-insensitive; the last word also matches as a prefix. Ranking sums lunr's
 * per-field weights of the matched terms, which orders documents exactly as lunr's cosine score
 * does when every clause has boost 1.
 */
import { fieldTerms, queryWords } from './tokens.ts';

/** A document that matched, by its position in the index, with its relevance score. */
export interface SearchHit {
  doc: number;
  score: number;
}

/** Postings of one term: for each field, parallel arrays of document positions and weights. */
interface Posting {
  docs: Int32Array;
  weights: Float64Array;
}

/** What lunr's builder knew when it computed the weights (lunr does not serialise these). */
export interface IndexStats {
  fields: string[];
  boosts: number[];
  averageFieldLength: number[];
  documentCount: number;
}

/** A loaded, query-ready index. Never mutated: a write makes a new one sharing what did not change. */
export interface SearchIndex {
  /** Document refs (ids) by position. */
  refs: string[];
  /** Sorted term list for prefix lookups. */
  terms: string[];
  postings: Map<string, Posting[]>;
  stats: IndexStats;
  /** Documents removed since the build (by position), skipped by every query. */
  removed: Uint8Array | undefined;
  /** Scratch buffers reused by every query (queries run synchronously, one at a time). */
  scratch: { clauseStamp: Int32Array; matchCount: Int32Array; scores: Float64Array; stamp: number };
}

interface LunrJson {
  fields: string[];
  fieldVectors: [string, number[]][];
  invertedIndex: [string, { _index: number }][];
}

/**
 * Compact, JSON-friendly postings derived from a serialized lunr index at build time: the
 * runtime loads these (a fraction of the lunr JSON's size and parse cost) instead.
 * `postings[t]` lists, for term `terms[t]`, one `[field, docs, weights]` triple per field the term
 * occurs in; weights are lunr's BM25 field weights (lunr rounds them to 3 decimals).
 */
export interface CompactIndex {
  refs: string[];
  terms: string[];
  postings: [number, number[], number[]][][];
  stats: IndexStats;
}

/**
 * @example compactIndex(built.lunr, built.stats)
 */
export function compactIndex(serialized: object, stats: IndexStats): CompactIndex {
  const json = serialized as LunrJson;
  const fieldNumber = new Map(json.fields.map((f, i) => [f, i]));
  const termByIndex: string[] = [];
  for (const [term, posting] of json.invertedIndex) termByIndex[posting._index] = term;

  const refs: string[] = [];
  const docNumber = new Map<string, number>();
  const collected = new Map<string, Map<number, [number, number[], number[]]>>();
  for (const [fieldRef, vector] of json.fieldVectors) {
    const slash = fieldRef.indexOf('/');
    const field = fieldNumber.get(fieldRef.slice(0, slash)) ?? 0;
    const ref = fieldRef.slice(slash + 1);
    let doc = docNumber.get(ref);
    if (doc === undefined) {
      doc = refs.push(ref) - 1;
      docNumber.set(ref, doc);
    }
    for (let i = 0; i < vector.length; i += 2) {
      const term = termByIndex[vector[i] ?? -1];
      if (term === undefined) continue;
      let perField = collected.get(term);
      if (!perField) collected.set(term, (perField = new Map()));
      let slot = perField.get(field);
      if (!slot) perField.set(field, (slot = [field, [], []]));
      slot[1].push(doc);
      slot[2].push(vector[i + 1] ?? 0);
    }
  }
  const terms = [...collected.keys()].sort();
  return { refs, terms, postings: terms.map((term) => [...(collected.get(term)?.values() ?? [])]), stats };
}

/**
 * Turn compact postings into query-ready typed arrays.
 * @example const index = loadSearchIndex(JSON.parse(text)); search(index, 'aws credits')
 */
export function loadSearchIndex(compact: CompactIndex): SearchIndex {
  const postings = new Map<string, Posting[]>();
  const fieldCount = compact.stats.fields.length;
  compact.terms.forEach((term, t) => {
    const perField: Posting[] = Array.from({ length: fieldCount }, () => EMPTY_POSTING);
    for (const [field, docs, weights] of compact.postings[t] ?? []) perField[field] = { docs: Int32Array.from(docs), weights: Float64Array.from(weights) };
    postings.set(term, perField);
  });
  return { refs: compact.refs, terms: compact.terms, postings, stats: compact.stats, removed: undefined, scratch: scratchFor(compact.refs.length) };
}

/**
 * A new index with the documents of `removeRefs` dropped and `add` indexed (a changed
 * document is removed and added again). Added documents get lunr's BM25 weights computed with
 * the statistics of this index, so they rank as a rebuild would rank them, up to the small
 * drift of those statistics; the next build recomputes everything exactly.
 * @param add each document's ref and field texts in `stats.fields` order
 */
export function withDocuments(index: SearchIndex, add: readonly { ref: string; texts: string[] }[], removeRefs: readonly string[]): SearchIndex {
  const drop = new Set(removeRefs);
  for (const { ref } of add) drop.add(ref);
  const refs = [...index.refs];
  const removed = new Uint8Array(refs.length + add.length);
  if (index.removed) removed.set(index.removed);
  refs.forEach((ref, doc) => {
    if (drop.has(ref)) removed[doc] = 1;
  });

  const { stats } = index;
  const documentCount = stats.documentCount + add.length;
  const postings = new Map(index.postings);
  const newTerms: string[] = [];
  for (const { ref, texts } of add) {
    const doc = refs.push(ref) - 1;
    texts.forEach((text, field) => {
      const terms = fieldTerms(text);
      const frequencies = new Map<string, number>();
      for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
      for (const [term, tf] of frequencies) {
        const current = postings.get(term);
        if (!current) newTerms.push(term);
        const perField = current ? [...current] : stats.fields.map(() => EMPTY_POSTING);
        const df = perField.reduce((sum, p) => sum + p.docs.length, 0) + 1;
        const weight = bm25(tf, terms.length, stats.averageFieldLength[field] || terms.length || 1, df, documentCount) * (stats.boosts[field] ?? 1);
        const slot = perField[field] ?? EMPTY_POSTING;
        perField[field] = { docs: appended(slot.docs, doc), weights: appendedFloat(slot.weights, Math.round(weight * 1000) / 1000) };
        postings.set(term, perField);
      }
    });
  }
  const terms = newTerms.length ? [...new Set([...index.terms, ...newTerms])].sort() : index.terms;
  return { refs, terms, postings, stats: { ...stats, documentCount }, removed, scratch: scratchFor(refs.length) };
}

/**
 * Documents matching every word of `text`, in no particular order (callers rank them with
 * their own tie-breaks). Text without any searchable word (only stop words or punctuation)
 * matches nothing.
 */
export function search(index: SearchIndex, text: string): SearchHit[] {
  const clauses = queryWords(text).map((word) => expand(index, word.stem, word.prefix ? word.raw : undefined));
  if (clauses.length === 0 || clauses.some((terms) => terms.length === 0)) return [];

  const { clauseStamp, matchCount, scores } = index.scratch;
  const removed = index.removed;
  const touched: number[] = [];
  clauses.forEach((terms, clauseNumber) => {
    const stamp = ++index.scratch.stamp;
    for (const term of terms) {
      for (const { docs, weights } of index.postings.get(term) ?? []) {
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i] as number;
          if (removed !== undefined && removed[doc] === 1) continue;
          if (clauseNumber === 0 && matchCount[doc] === 0 && clauseStamp[doc] !== stamp) {
            touched.push(doc);
            scores[doc] = 0;
          }
          // A document only stays a candidate if it matched every earlier clause.
          if (matchCount[doc] !== clauseNumber && clauseStamp[doc] !== stamp) continue;
          if (clauseStamp[doc] !== stamp) {
            clauseStamp[doc] = stamp;
            matchCount[doc] = clauseNumber + 1;
          }
          scores[doc] = (scores[doc] as number) + (weights[i] as number);
        }
      }
    }
  });

  const hits: SearchHit[] = [];
  for (const doc of touched) {
    if (matchCount[doc] === clauses.length) hits.push({ doc, score: scores[doc] as number });
    matchCount[doc] = 0;
  }
  return hits;
}

// --- internal ---

const EMPTY_POSTING: Posting = { docs: new Int32Array(0), weights: new Float64Array(0) };

function scratchFor(n: number): SearchIndex['scratch'] {
  return { clauseStamp: new Int32Array(n), matchCount: new Int32Array(n), scores: new Float64Array(n), stamp: 0 };
}

/** lunr's field weight (lunr.Builder#createFieldVectors, k1 1.2, b 0.75) before boosts and rounding. */
function bm25(tf: number, fieldLength: number, averageFieldLength: number, documentsWithTerm: number, documentCount: number): number {
  const idf = Math.log(1 + Math.abs((documentCount - documentsWithTerm + 0.5) / (documentsWithTerm + 0.5)));
  return (idf * (2.2 * tf)) / (1.2 * (1 - 0.75 + 0.75 * (fieldLength / averageFieldLength)) + tf);
}

function appended(values: Int32Array, value: number): Int32Array {
  const next = new Int32Array(values.length + 1);
  next.set(values);
  next[values.length] = value;
  return next;
}

function appendedFloat(values: Float64Array, value: number): Float64Array {
  const next = new Float64Array(values.length + 1);
  next.set(values);
  next[values.length] = value;
  return next;
}

/** Index terms a query word stands for: its stem, or for a prefix word every term it starts. */
function expand(index: SearchIndex, stem: string, prefix: string | undefined): string[] {
  if (prefix === undefined || prefix.length < 2) return index.postings.has(stem) ? [stem] : [];
  const terms = new Set<string>(termsStartingWith(index.terms, stem));
  for (const term of termsStartingWith(index.terms, prefix)) terms.add(term);
  return [...terms];
}

function termsStartingWith(sorted: readonly string[], prefix: string): string[] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((sorted[mid] as string) < prefix) low = mid + 1;
    else high = mid;
  }
  const out: string[] = [];
  for (let i = low; i < sorted.length && (sorted[i] as string).startsWith(prefix); i++) out.push(sorted[i] as string);
  return out;
}
