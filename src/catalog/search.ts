/**
 * Query evaluation over a serialized lunr index. It reads lunr's postings and BM25 field
 * weights directly instead of calling `lunr.Index#query`, which allocates per posting and took
 * milliseconds on 5,000 deals. Semantics (DESIGN "search syntax", issue 13): each word matches
 * its stem, terms within its typo budget, a compound with its neighbour or split in two, and
 * for the last word every term it starts; a document matching any word is a hit, ranked by
 * `compareHits`. The score sums lunr's per-field weights of the matched terms, which orders
 * single exact words exactly as lunr's cosine score does. Weights are kept in thousandths (lunr
 * rounds them to 3 decimals), as 32-bit integers: half the memory of floats (26 MB of 78 at
 * 50,000 deals and 100,000 startups), and their sums are exact.
 */
import { LRUCache } from 'lru-cache';
import { compoundSplits, dictionaryOf, typoMatches, type Dictionary } from './term-match.ts';
import { fieldTerms, queryStem, queryWords, type QueryWord } from './tokens.ts';

/** A document that matched, by its position in the index, with what the ranking rules compare. */
export interface SearchHit {
  doc: number;
  /** lunr's BM25 field weights of the matched terms, summed, in thousandths. */
  score: number;
  /** How many query words it matched. */
  words: number;
  /** Which words, each weighted by how informative it is (see `informativeness`). */
  wordRank: number;
  /** Typos summed over the matched words (each word counts its best match). */
  typos: number;
  /** Matched words whose best match was not exact (a prefix, a typo or a split compound). */
  inexact: number;
}

/**
 * The hits of one search as columns, hit i being `docs[i]`, `scores[i]`…: what `searchWords`
 * gives as objects, without an object per document met. A common word meets tens of thousands
 * of documents at 50,000 deals, and those objects were most of an uncached search's garbage
 * (docs/performance.md). `searchColumns` fills the index's own columns: valid until the next
 * search on that index (queries run synchronously, one at a time).
 */
export interface HitColumns {
  count: number;
  docs: Int32Array;
  scores: Float64Array;
  words: Int32Array;
  wordRanks: Float64Array;
  typos: Int32Array;
  inexact: Int32Array;
  /**
   * Room for the hits a caller keeps (hit numbers, filtered), as many as there can be hits,
   * reused like the rest. A list grown by `push` to the tens of thousands of hits of a common
   * word cost 470 µs of a 600 µs uncached search at 50,000 deals: each growth past 128 KB is a
   * large object on fresh pages (docs/performance.md, fourteenth sitting).
   */
  kept: Int32Array;
}

/** Postings of one term in one field: parallel arrays of document positions and weights. */
interface Posting {
  docs: Int32Array;
  /** In thousandths (`fieldWeight`). */
  weights: Int32Array;
}

/** A term's postings in a field it does not occur in. */
const EMPTY_POSTING: Posting = { docs: new Int32Array(0), weights: new Int32Array(0) };

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
  /** The term list arranged for typo lookups. */
  dictionary: Dictionary;
  /** What query words matched by themselves, kept for the next query with the same word (`ownMatches`). */
  wordMatches: LRUCache<string, WordMatches>;
  /** Scratch buffers reused by every query (queries run synchronously, one at a time). */
  scratch: Scratch;
}

/** Per-document buffers, valid where `docStamp` (query) or `clauseStamp` (word) is current. */
export interface Scratch {
  stamp: number;
  docStamp: Int32Array;
  mask: Int32Array;
  typos: Int32Array;
  inexact: Int32Array;
  scores: Float64Array;
  clauseStamp: Int32Array;
  clauseCost: Int32Array;
  clauseScore: Float64Array;
  /** A split compound's or multi-word alternative's progress through its terms (`allOf`). */
  partMark: Int32Array;
  partWeight: Float64Array;
  /** The documents a query has met, and those one word has, in the order met. */
  touched: Int32Array;
  clauseDocs: Int32Array;
  /** What `searchColumns` returns. */
  hits: HitColumns;
}

/**
 * An index's postings as the build makes them (src/pipeline/search-index.ts) and
 * `generated/search-postings.bin` holds them (catalog/postings-file.ts): for each term, in the
 * sorted order of `terms`, and each field, a run of documents (positions, ascending) and their
 * weights (lunr's BM25 field weights in thousandths, `fieldWeight`). The run of
 * term t in field f begins at `starts[t × fields + f]` and ends where the next begins; the last
 * entry is the count.
 */
export interface PostingsLayout {
  refs: string[];
  terms: string[];
  stats: IndexStats;
  starts: Int32Array;
  docs: Int32Array;
  weights: Int32Array;
}

/**
 * Turn counts into where each run starts, in place: `counts[i + 1]` holds the length of run i
 * (`counts[0]` is 0); afterwards `counts[i]` is where run i begins and the last entry the total.
 * @example runStarts(Int32Array.of(0, 2, 0, 3)) // Int32Array [0, 2, 2, 5]
 */
export function runStarts(counts: Int32Array): Int32Array {
  for (let at = 1; at < counts.length; at++) counts[at] = (counts[at] as number) + (counts[at - 1] as number);
  return counts;
}

/**
 * Make postings query-ready: each term's postings are views of the layout's arrays, nothing is
 * copied.
 * @example const index = loadSearchIndex(readPostingsFile(bytes).deals); search(index, 'aws credits')
 */
export function loadSearchIndex(layout: PostingsLayout): SearchIndex {
  const fields = layout.stats.fields.length;
  const { starts, docs, weights } = layout;
  const postings = new Map<string, Posting[]>();
  layout.terms.forEach((term, t) => {
    const perField: Posting[] = [];
    for (let at = t * fields; at < (t + 1) * fields; at++) {
      const start = starts[at] as number;
      const end = starts[at + 1] as number;
      perField.push(end > start ? { docs: docs.subarray(start, end), weights: weights.subarray(start, end) } : EMPTY_POSTING);
    }
    postings.set(term, perField);
  });
  return {
    refs: layout.refs,
    terms: layout.terms,
    postings,
    stats: layout.stats,
    removed: undefined,
    dictionary: dictionaryOf(layout.terms),
    wordMatches: wordMatchesKept(),
    scratch: scratchFor(layout.refs.length),
  };
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
        const weight = fieldWeight(termIdf(df, documentCount), tf, terms.length, stats.averageFieldLength[field] || terms.length || 1, stats.boosts[field] ?? 1);
        const slot = perField[field] ?? EMPTY_POSTING;
        perField[field] = { docs: appended(slot.docs, doc), weights: appended(slot.weights, weight) };
        postings.set(term, perField);
      }
    });
  }
  const terms = newTerms.length ? [...new Set([...index.terms, ...newTerms])].sort() : index.terms;
  const dictionary = terms === index.terms ? index.dictionary : dictionaryOf(terms);
  return { refs, terms, postings, stats: { ...stats, documentCount }, removed, dictionary, wordMatches: wordMatchesKept(), scratch: scratchFor(refs.length) };
}

/**
 * lunr's idf of a term (lunr.idf): `documentsWithTerm` counts a document once per field the
 * term is in.
 */
export function termIdf(documentsWithTerm: number, documentCount: number): number {
  return Math.log(1 + Math.abs((documentCount - documentsWithTerm + 0.5) / (documentsWithTerm + 0.5)));
}

/**
 * A term's weight in one field of one document, as lunr.Builder#createFieldVectors computes it
 * (BM25 with k1 1.2 and b 0.75, the field's boost), in its order of operations, in thousandths:
 * lunr rounds the weight to 3 decimals, and its float is exactly this integer / 1000. The build
 * (src/pipeline/search-index.ts) and a write indexing a record in place give the weights lunr gives.
 * @example fieldWeight(termIdf(1, 100), 1, 3, 3, 10) // 42097 (lunr: 42.097)
 */
export function fieldWeight(idf: number, tf: number, fieldLength: number, averageFieldLength: number, boost: number): number {
  let score = (idf * ((K1 + 1) * tf)) / (K1 * (1 - B + B * (fieldLength / averageFieldLength)) + tf);
  score *= boost;
  return Math.round(score * 1000);
}

/**
 * Documents matching at least one word of `text`, each with what the ranking rules need
 * (`compareHits`), in no particular order. Text without any searchable word (only stop words or
 * punctuation) matches nothing.
 * @example search(index, 'digital ocean credits').sort(compareHits)
 */
export function search(index: SearchIndex, text: string): SearchHit[] {
  return searchWords(index, queryWords(text));
}

/**
 * `searchColumns` as one object per hit.
 * @example searchWords(index, queryWords('mongo db'))
 */
export function searchWords(index: SearchIndex, words: readonly QueryWord[]): SearchHit[] {
  const columns = searchColumns(index, words);
  return Array.from({ length: columns.count }, (_, i) => hitAt(columns, i));
}

/** Hit i of some columns, as an object. */
export function hitAt(columns: HitColumns, i: number): SearchHit {
  return {
    doc: columns.docs[i] as number,
    score: columns.scores[i] as number,
    words: columns.words[i] as number,
    wordRank: columns.wordRanks[i] as number,
    typos: columns.typos[i] as number,
    inexact: columns.inexact[i] as number,
  };
}

/** Hits as columns of their own (not an index's), in the order given. */
export function hitColumnsOf(hits: readonly SearchHit[]): HitColumns {
  const columns = emptyColumns(hits.length);
  hits.forEach((hit, i) => {
    columns.docs[i] = hit.doc;
    columns.scores[i] = hit.score;
    columns.words[i] = hit.words;
    columns.wordRanks[i] = hit.wordRank;
    columns.typos[i] = hit.typos;
    columns.inexact[i] = hit.inexact;
  });
  columns.count = hits.length;
  return columns;
}

/**
 * `search` over words already split, the place where a query is expanded before matching
 * (editors' synonyms fill each word's `alternatives`). DESIGN "search syntax", Meilisearch's
 * "last" matching strategy: a document matching some words is a hit; `compareHits` ranks the
 * ones matching every word first. The hits are the index's own columns, valid until its next
 * search.
 * @example const hits = searchColumns(index, queryWords('mongo db')); hits.docs.subarray(0, hits.count)
 */
export function searchColumns(index: SearchIndex, words: readonly QueryWord[]): HitColumns {
  const { scratch } = index;
  const columns = scratch.hits;
  columns.count = 0;
  if (words.length === 0) return columns;
  restartStampsWhenHigh(scratch);
  const queryStamp = ++scratch.stamp;
  // Documents met so far, and this word's: the scratch's own arrays, not arrays grown per query.
  const { touched, clauseDocs } = scratch;
  let touchedCount = 0;
  const docsPerWord: number[] = [];
  const has = (term: string): boolean => index.postings.has(term);
  const joins = words.map((word, i) => {
    const next = words[i + 1];
    const joined = next ? queryStem(word.raw + next.raw) : undefined;
    return joined !== undefined && has(joined) ? joined : undefined;
  });

  // The scratch's arrays as locals: the loops below run once per posting met.
  const { clauseStamp: clauseStamps, clauseCost, clauseScore, docStamp, mask, typos, inexact, scores } = scratch;
  const { removed } = index;
  words.forEach((word, w) => {
    const clauseStamp = ++scratch.stamp;
    let clauseCount = 0;
    const add = (doc: number, weight: number, cost: number): void => {
      if (removed !== undefined && removed[doc] === 1) return;
      if (clauseStamps[doc] !== clauseStamp) {
        clauseStamps[doc] = clauseStamp;
        clauseDocs[clauseCount++] = doc;
      } else if (cost > (clauseCost[doc] as number)) return;
      else if (cost === clauseCost[doc]) {
        clauseScore[doc] = (clauseScore[doc] as number) + weight;
        return;
      }
      // Only the word's best matches score: a typo neighbour adds nothing beside the exact word.
      clauseCost[doc] = cost;
      clauseScore[doc] = weight;
    };
    const own = ownMatches(index, word);
    const { terms, costs } = withJoins(own, joins[w - 1], joins[w]);
    terms.forEach((term, t) => {
      const cost = costs[t] as number;
      for (const { docs, weights } of index.postings.get(term) ?? []) {
        // `add` written out, in the loop met once per posting: with the call, the 50,000-deal
        // bench searches took 276-284 µs here against 239-265 written out, and in some
        // processes V8 left `add` a function of its own (docs/performance.md, fourteenth sitting).
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i] as number;
          if (removed !== undefined && removed[doc] === 1) continue;
          const weight = weights[i] as number;
          if (clauseStamps[doc] !== clauseStamp) {
            clauseStamps[doc] = clauseStamp;
            clauseDocs[clauseCount++] = doc;
          } else if (cost > (clauseCost[doc] as number)) continue;
          else if (cost === clauseCost[doc]) {
            clauseScore[doc] = (clauseScore[doc] as number) + weight;
            continue;
          }
          clauseCost[doc] = cost;
          clauseScore[doc] = weight;
        }
      }
    });
    for (const parts of own.splits) allOf(index, parts, (doc, weight) => add(doc, weight, SPLIT_COST));
    for (const parts of alternativesIn(index, word)) allOf(index, parts, (doc, weight) => add(doc, weight, EXACT_COST));
    docsPerWord.push(clauseCount);
    const bit = 1 << w;
    for (let c = 0; c < clauseCount; c++) {
      const doc = clauseDocs[c] as number;
      if (docStamp[doc] !== queryStamp) {
        docStamp[doc] = queryStamp;
        mask[doc] = 0;
        typos[doc] = 0;
        inexact[doc] = 0;
        scores[doc] = 0;
        touched[touchedCount++] = doc;
      }
      const cost = clauseCost[doc] as number;
      mask[doc] = (mask[doc] as number) | bit;
      typos[doc] = (typos[doc] as number) + (cost >> 1);
      inexact[doc] = (inexact[doc] as number) + (cost & 1);
      scores[doc] = (scores[doc] as number) + (clauseScore[doc] as number);
    }
  });

  const weightOfWord = informativeness(docsPerWord);
  for (let i = 0; i < touchedCount; i++) {
    const doc = touched[i] as number;
    const matched = mask[doc] as number;
    let wordCount = 0;
    let wordRank = 0;
    for (let w = 0; w < weightOfWord.length; w++) {
      if (matched & (1 << w)) {
        wordCount++;
        wordRank += weightOfWord[w] as number;
      }
    }
    columns.docs[i] = doc;
    columns.scores[i] = scores[doc] as number;
    columns.words[i] = wordCount;
    columns.wordRanks[i] = wordRank;
    columns.typos[i] = typos[doc] as number;
    columns.inexact[i] = inexact[doc] as number;
  }
  columns.count = touchedCount;
  return columns;
}

/**
 * The ranking rules, in order (docs/api.md "Ranking"): more query words matched first (and,
 * among as many, the more informative ones); fewer typos; fewer words matched other than
 * exactly (by prefix, typo or split compound); higher lunr BM25 field-weight sum. Callers
 * break the remaining ties editorially. Paid placement plays no part here.
 * @example hits.sort((a, b) => compareHits(a, b) || a.doc - b.doc)
 */
export function compareHits(a: SearchHit, b: SearchHit): number {
  return b.words - a.words || b.wordRank - a.wordRank || a.typos - b.typos || a.inexact - b.inexact || b.score - a.score;
}

/** `compareHits` of hits i and j of the same columns. */
export function compareHitsAt(hits: HitColumns, i: number, j: number): number {
  const { words, wordRanks, typos, inexact, scores } = hits;
  return (
    (words[j] as number) - (words[i] as number) ||
    (wordRanks[j] as number) - (wordRanks[i] as number) ||
    (typos[i] as number) - (typos[j] as number) ||
    (inexact[i] as number) - (inexact[j] as number) ||
    (scores[j] as number) - (scores[i] as number)
  );
}

// --- internal ---

/** lunr.Builder's BM25 parameters (its defaults). */
const K1 = 1.2;
const B = 0.75;

/**
 * Stamps live in Int32Arrays, where a count past 2^31 - 1 wraps and never equals the stamp
 * again: a long-running server would then take every document met for a new one. Past 2^30
 * (hundreds of millions of searches), a search starts from zero with its marks cleared; one
 * search moves the count by a few hundred at most, so it never crosses 2^31 within a search.
 */
export function restartStampsWhenHigh(scratch: Scratch): void {
  if (scratch.stamp < STAMP_RESTART) return;
  scratch.stamp = 0;
  scratch.docStamp.fill(0);
  scratch.clauseStamp.fill(0);
  scratch.partMark.fill(0);
}

/** Where `restartStampsWhenHigh` starts the count again. */
export const STAMP_RESTART = 2 ** 30;

function scratchFor(n: number): Scratch {
  return {
    stamp: 0,
    docStamp: new Int32Array(n),
    mask: new Int32Array(n),
    typos: new Int32Array(n),
    inexact: new Int32Array(n),
    scores: new Float64Array(n),
    clauseStamp: new Int32Array(n),
    clauseCost: new Int32Array(n),
    clauseScore: new Float64Array(n),
    partMark: new Int32Array(n),
    partWeight: new Float64Array(n),
    touched: new Int32Array(n),
    clauseDocs: new Int32Array(n),
    hits: emptyColumns(n),
  };
}

function emptyColumns(n: number): HitColumns {
  return {
    count: 0,
    docs: new Int32Array(n),
    scores: new Float64Array(n),
    words: new Int32Array(n),
    wordRanks: new Float64Array(n),
    typos: new Int32Array(n),
    inexact: new Int32Array(n),
    kept: new Int32Array(n),
  };
}

/** A match's cost within one word: typos first, then whether it was inexact (`typos * 2 + inexact`). */
const cost = (typos: number, exact: boolean): number => typos * 2 + (exact ? 0 : 1);
const EXACT_COST = cost(0, true);
/** A typed compound read as two indexed words: no typo, not exact. */
const SPLIT_COST = cost(0, false);

/**
 * What one query word matches by itself, whatever query it is in: index terms, each with its
 * best cost (its stem; for the last word, every term it starts; terms within its typo budget),
 * and the ways to read it as two indexed words. The same for every query with that word, so
 * each index keeps those of the words searched last (`ownMatches`).
 */
interface WordMatches {
  terms: readonly string[];
  costs: readonly number[];
  splits: readonly (readonly string[])[];
}

/**
 * About how many bytes the kept `WordMatches` of one index may take (`keptBytes`). A word's own
 * matches took two fifths of an uncached search (the typo walk, and the stemmer on every cut of
 * a compound: docs/performance.md); people reuse words from query to query (each keystroke of
 * instant search repeats the words before it), so most words are looked up, not worked out. A
 * 2-letter prefix may start thousands of terms, and a client may send any number of made-up
 * words, so the bound counts both the terms and the words.
 */
const WORD_MATCHES_BYTES = 4 * 1024 * 1024;

/**
 * What one word's matches keep in memory, roughly: the entry and its key, a slot and a cost per
 * term (the terms are the index's own strings), a split's pair. Measured: 29,593 made-up words
 * of 6–35 letters, each matching nothing, added 12.7 MB to the heap (stems included) where this
 * counts 8.4 MB with 200 bytes an entry, hence 300.
 */
function keptBytes(matches: WordMatches, key: string): number {
  return 300 + 2 * key.length + 16 * matches.terms.length + 64 * matches.splits.length;
}

function wordMatchesKept(): LRUCache<string, WordMatches> {
  return new LRUCache<string, WordMatches>({ maxSize: WORD_MATCHES_BYTES, sizeCalculation: keptBytes });
}

/** `WordMatches` of `word` in `index`, kept or worked out. */
function ownMatches(index: SearchIndex, word: QueryWord): WordMatches {
  const key = `${word.prefix ? '*' : ''}${word.stem}\u0000${word.raw}`;
  let matches = index.wordMatches.get(key);
  if (matches === undefined) index.wordMatches.set(key, (matches = workedOutMatches(index, word)));
  return matches;
}

function workedOutMatches(index: SearchIndex, word: QueryWord): WordMatches {
  const best = new Map<string, number>();
  const keep = (term: string, typos: number, exact: boolean): void => {
    const c = cost(typos, exact);
    if ((best.get(term) ?? Infinity) > c) best.set(term, c);
  };
  if (index.postings.has(word.stem)) keep(word.stem, 0, true);
  if (word.prefix && word.raw.length >= 2) {
    for (const term of termsStartingWith(index.terms, word.stem)) keep(term, 0, term === word.stem);
    for (const term of termsStartingWith(index.terms, word.raw)) keep(term, 0, term === word.stem);
  }
  for (const match of typoMatches(index.dictionary, (t) => index.postings.has(t), word.stem, word.raw)) keep(match.term, match.typos, match.exact);
  const splits = compoundSplits(word.raw, (term) => index.postings.has(term));
  return { terms: [...best.keys()], costs: [...best.values()], splits };
}

/**
 * A word's own terms and the word joined with its neighbour where the index has that compound
 * ("digital ocean" → `digitalocean`, which then counts for both words), each term once at its
 * best cost: a term met twice at one cost would count its weight twice.
 */
function withJoins(own: WordMatches, joinedBefore: string | undefined, joinedAfter: string | undefined): Pick<WordMatches, 'terms' | 'costs'> {
  if (joinedBefore === undefined && joinedAfter === undefined) return own;
  const best = new Map<string, number>(own.terms.map((term, t) => [term, own.costs[t] as number]));
  for (const joined of [joinedBefore, joinedAfter]) if (joined !== undefined) best.set(joined, EXACT_COST);
  return { terms: [...best.keys()], costs: [...best.values()] };
}

/** Editors' synonyms of a word that name several terms (a multi-word alternative), each needing all of them in one document. */
function alternativesIn(index: SearchIndex, word: QueryWord): string[][] {
  const out: string[][] = [];
  for (const alternative of word.alternatives ?? []) {
    const stems = queryWords(alternative).map((w) => w.stem);
    if (stems.length > 0 && stems.every((term) => index.postings.has(term))) out.push(stems);
  }
  return out;
}

/**
 * Documents holding every one of `terms` in one same field, each visited once per such field
 * with the terms' summed weights there. The index keeps no word positions, so "in the same
 * field" is the closest it can come to "next to each other": "dropbox" should not match a deal
 * saying "drop" in its title and "box" in its description. A split compound meets every
 * document of its commoner half, so this runs on the scratch's arrays: term k moves a document
 * of the field from mark `base + k` to `base + k + 1`, and those reaching `base + terms.length`
 * hold them all (a map per term was 7 % of an uncached search at 50,000 deals).
 */
function allOf(index: SearchIndex, terms: readonly string[], visit: (doc: number, weight: number) => void): void {
  const perTerm = terms.map((term) => index.postings.get(term));
  if (terms.length === 0 || perTerm.some((postings) => postings === undefined)) return;
  const { scratch } = index;
  const { partMark, partWeight } = scratch;
  for (let field = 0; field < index.stats.fields.length; field++) {
    const base = scratch.stamp + 1;
    scratch.stamp += terms.length + 1;
    perTerm.forEach((postings, k) => {
      const { docs, weights } = (postings as Posting[])[field] ?? EMPTY_POSTING;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        if (k === 0) partWeight[doc] = 0;
        else if (partMark[doc] !== base + k) continue;
        partMark[doc] = base + k + 1;
        partWeight[doc] = (partWeight[doc] as number) + (weights[i] as number);
      }
    });
    const { docs } = (perTerm[0] as Posting[])[field] ?? EMPTY_POSTING;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      if (partMark[doc] === base + terms.length) visit(doc, partWeight[doc] as number);
    }
  }
}

/**
 * Each word's weight in the "words" rule, as a bit so that keeping a more informative word
 * always outweighs keeping any set of less informative ones. Least informative (dropped first):
 * words matching nothing, then words in the most documents, then later words (Meilisearch's
 * "last" strategy drops from the end).
 */
function informativeness(docsPerWord: readonly number[]): number[] {
  const order = docsPerWord.map((docs, w) => ({ docs, w })).sort((a, b) => (a.docs === 0 ? 1 : 0) - (b.docs === 0 ? 1 : 0) || a.docs - b.docs || a.w - b.w);
  const weights = new Array<number>(docsPerWord.length).fill(0);
  order.forEach(({ w }, rank) => (weights[w] = 2 ** (docsPerWord.length - 1 - rank)));
  return weights;
}

function appended(values: Int32Array, value: number): Int32Array {
  const next = new Int32Array(values.length + 1);
  next.set(values);
  next[values.length] = value;
  return next;
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
