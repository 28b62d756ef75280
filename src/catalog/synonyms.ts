/**
 * Editors' synonyms (`content/synonyms.yaml`) on the query side: a query is rewritten into a few
 * alternatives, each searched like the original (DESIGN "search syntax"). Pure: no I/O.
 * Matching is on folded, stemmed words (case, accents, punctuation and word endings ignored),
 * so `equity-free`, `Equity free` and `équity free` are one term and `grants` matches `grant`;
 * multi-word terms (`y combinator`) match as consecutive query words.
 */
import lunr from 'lunr';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import { foldWords } from './fold.ts';

/** Synonyms ready for queries: each term's stemmed words (joined by one space) → the folded words it also searches. */
export interface SynonymTable {
  alternatives: Map<string, string[][]>;
  /** Most words in any term, so matching never looks further ahead than needed. */
  longestTerm: number;
}

/**
 * At most this many alternatives per query: each is a full search, so a query costs at most five
 * searches (measured on the starter catalog: a query with four alternatives about 1 to 5 ms
 * with the typo-tolerant engine; 5,000 deals must stay under the p99 target).
 */
export const MAX_VARIANTS = 4;

/** Query words considered for synonyms (the search itself uses at most 16 words). */
const MAX_WORDS = 16;

/** The empty table: no synonyms (the file is optional). */
export const NO_SYNONYMS: SynonymTable = { alternatives: new Map(), longestTerm: 0 };

/**
 * Compile the validated file into a lookup table. Two-way groups map every term to every other;
 * one-way rules map the left term to the right ones. Terms that fold to nothing are skipped.
 * @example compileSynonyms({ 'two-way': [['yc', 'y combinator']], 'one-way': {} }).alternatives.get('yc') // [['y', 'combinator']]
 */
export function compileSynonyms(file: SynonymsFile | undefined): SynonymTable {
  if (!file) return NO_SYNONYMS;
  const alternatives = new Map<string, string[][]>();
  let longestTerm = 0;
  const add = (from: string[], to: string[]) => {
    if (from.length === 0 || to.length === 0) return;
    const key = stemKey(from);
    if (key === stemKey(to)) return;
    const list = alternatives.get(key) ?? [];
    if (!list.some((t) => t.join(' ') === to.join(' '))) list.push(to);
    alternatives.set(key, list);
    longestTerm = Math.max(longestTerm, from.length);
  };
  for (const group of file['two-way']) {
    const terms = group.map(foldWords);
    for (const from of terms) for (const to of terms) add(from, to);
  }
  for (const [from, targets] of Object.entries(file['one-way'])) {
    for (const to of targets) add(foldWords(from), foldWords(to));
  }
  return { alternatives, longestTerm };
}

/**
 * The alternatives of a query under the synonyms, the query itself not included: one per
 * (matched term, synonym) with that term replaced, then, when several terms matched, one with
 * every matched term replaced by its first synonym. At most MAX_VARIANTS, in that order.
 * Where terms overlap, the longest one starting first wins (`no equity` before `equity`).
 * @param query the query text, or its words already folded
 * @example expandQuery('yc demo day', table) // ['y combinator demo day']
 */
export function expandQuery(query: string | readonly string[], table: SynonymTable): string[] {
  if (table.longestTerm === 0) return [];
  const words = (typeof query === 'string' ? foldWords(query) : query.flatMap(foldWords)).slice(0, MAX_WORDS);
  const matches = findTerms(words, table);
  if (matches.length === 0) return [];

  const variants = new Set<string>();
  const original = words.join(' ');
  const push = (text: string) => {
    if (text !== original && variants.size < MAX_VARIANTS) variants.add(text);
  };
  const replaced = (choice: (m: TermMatch) => string[] | undefined) => {
    const out: string[] = [];
    let i = 0;
    for (const m of matches) {
      out.push(...words.slice(i, m.start), ...(choice(m) ?? words.slice(m.start, m.end)));
      i = m.end;
    }
    return [...out, ...words.slice(i)].join(' ');
  };
  for (const match of matches) {
    for (const synonym of match.synonyms) push(replaced((m) => (m === match ? synonym : undefined)));
  }
  if (matches.length > 1) push(replaced((m) => m.synonyms[0]));
  return [...variants];
}

// --- internal ---

interface TermMatch {
  start: number;
  end: number;
  synonyms: string[][];
}

/** Non-overlapping terms of the table in `words`, left to right, longest first at each position. */
function findTerms(words: readonly string[], table: SynonymTable): TermMatch[] {
  const stems = words.map(stem);
  const found: TermMatch[] = [];
  let start = 0;
  while (start < words.length) {
    let match: TermMatch | undefined;
    for (let length = Math.min(table.longestTerm, words.length - start); length > 0 && !match; length--) {
      const synonyms = table.alternatives.get(stems.slice(start, start + length).join(' '));
      if (synonyms) match = { start, end: start + length, synonyms };
    }
    if (match) {
      found.push(match);
      start = match.end;
    } else {
      start++;
    }
  }
  return found;
}

/** lunr's stemmer, as the index uses it, so a synonym matches every form the search matches. */
function stem(word: string): string {
  return lunr.stemmer(new lunr.Token(word, {})).toString();
}

function stemKey(words: readonly string[]): string {
  return words.map(stem).join(' ');
}
