/**
 * Query evaluation over a serialized lunr index. It reads lunr's postings and BM25 field
 * weights directly instead of calling `lunr.Index#query`, which allocates per posting and took
 * milliseconds on 5,000 deals. Semantics (DESIGN "search syntax"): every word must match (AND),
 * stemmed and case-insensitive; the last word also matches as a prefix. Ranking sums lunr's
 * per-field weights of the matched terms, which orders documents exactly as lunr's cosine score
 * does when every clause has boost 1.
 */
import { queryWords } from './tokens.ts';

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

/** A loaded, query-ready index. */
export interface SearchIndex {
  /** Document refs (ids) by position. */
  refs: string[];
  /** Sorted term list for prefix lookups. */
  terms: string[];
  postings: Map<string, Posting[]>;
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
}

/**
 * @example compactIndex(lunrIndex.toJSON())
 */
export function compactIndex(serialized: object): CompactIndex {
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
  return { refs, terms, postings: terms.map((term) => [...(collected.get(term)?.values() ?? [])]) };
}

/**
 * Turn compact postings into query-ready typed arrays.
 * @example const index = loadSearchIndex(JSON.parse(text)); search(index, 'aws credits')
 */
export function loadSearchIndex(compact: CompactIndex): SearchIndex {
  const postings = new Map<string, Posting[]>();
  compact.terms.forEach((term, t) => {
    postings.set(
      term,
      (compact.postings[t] ?? []).map(([, docs, weights]) => ({ docs: Int32Array.from(docs), weights: Float64Array.from(weights) })),
    );
  });
  const n = compact.refs.length;
  return {
    refs: compact.refs,
    terms: compact.terms,
    postings,
    scratch: { clauseStamp: new Int32Array(n), matchCount: new Int32Array(n), scores: new Float64Array(n), stamp: 0 },
  };
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
  const touched: number[] = [];
  clauses.forEach((terms, clauseNumber) => {
    const stamp = ++index.scratch.stamp;
    for (const term of terms) {
      for (const { docs, weights } of index.postings.get(term) ?? []) {
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i] as number;
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
