/**
 * Which index terms a query word may stand for besides itself: terms within its typo budget
 * (DESIGN "search syntax": none under 5 letters, one for 5–8, two from 9, never on words with
 * digits) and the two halves of a compound typed as one word ("mongodb" → mongo + db). The
 * dictionary is bucketed by first letter and length at load, so a word is compared with a few
 * dozen terms, not the whole vocabulary, and each comparison stops as soon as it exceeds the budget.
 */
import { processToken } from './tokens.ts';

/** An index term a query word matched, and how. */
export interface TermMatch {
  term: string;
  /** Edits between the query word's stem and the term (a first-letter edit counts two). */
  typos: number;
  /** The term is the word's own stem (or a whole compound), not a prefix extension or a typo. */
  exact: boolean;
}

/** The term dictionary arranged for typo lookups. Built once per index. */
export interface Dictionary {
  /** Terms by first character and length (`"c7"` → `credits`…), digit-bearing terms left out. */
  buckets: Map<string, string[]>;
  /** Terms by everything after their first character, for first-letter typos. */
  tails: Map<string, string[]>;
}

/**
 * The typo budget of a word as typed: 0 under 5 characters, 1 for 5–8, 2 from 9; 0 for any word
 * with a digit ("s3", "2026", "10x" are names and numbers, not misspellings).
 * @example maxTypos('hubspt') // 1
 */
export function maxTypos(raw: string): number {
  if (/\p{N}/u.test(raw)) return 0;
  return raw.length < 5 ? 0 : raw.length < 9 ? 1 : 2;
}

/**
 * Arrange a sorted term list for `typoMatches`.
 * @example const dictionary = dictionaryOf(index.terms)
 */
export function dictionaryOf(terms: readonly string[]): Dictionary {
  const buckets = new Map<string, string[]>();
  const tails = new Map<string, string[]>();
  for (const term of terms) {
    if (/\p{N}/u.test(term)) continue;
    push(buckets, bucketKey(term[0] ?? '', term.length), term);
    push(tails, term.slice(1), term);
  }
  return { buckets, tails };
}

/**
 * Terms within the typo budget of `raw`, compared on its stem; the stem itself is not included.
 * Like Meilisearch, an edit of the first letter counts as two typos, so only words of 9 letters
 * or more may start with a typo, and then only with that one.
 * @example typoMatches(dictionary, has, 'hubspt', 'hubspt') // [{ term: 'hubspot', typos: 1, exact: false }]
 */
export function typoMatches(dictionary: Dictionary, has: (term: string) => boolean, stem: string, raw: string): TermMatch[] {
  const budget = maxTypos(raw);
  if (budget === 0 || stem.length < 2) return [];
  const found = new Map<string, number>();
  const first = stem[0] as string;
  // The index holds stems, and a misspelt word stems unpredictably ("acelerater" → `acelerat`,
  // not `acceler`), so a term may also be within budget of the word as typed less a short
  // ending (at most SUFFIX characters, what the stemmer would have cut), the ending counting as a
  // typo so that "hostxyz" is not read as `host` for free.
  const shortest = Math.min(stem.length, raw.length - SUFFIX) - budget;
  const longest = Math.max(stem.length, raw.length) + budget;
  for (let length = Math.max(1, shortest); length <= longest; length++) {
    for (const term of dictionary.buckets.get(bucketKey(first, length)) ?? []) {
      if (term === stem) continue;
      const distance = Math.min(
        // Against the stem, within the stem's own budget: "wedding" stems to `wed`, and `web` is
        // one edit from that but not a typo of "wedding".
        maxTypos(stem) === 0 ? budget + 1 : boundedDistance(term, stem, budget),
        boundedDistance(term, raw, budget),
        term.length < MIN_STEM_PREFIX ? budget + 1 : boundedDistance(term, raw, budget - 1, raw.length - SUFFIX) + 1,
      );
      if (distance <= budget) found.set(term, distance);
    }
  }
  // A term the word as typed starts with, 5 letters or more ("observabilty" → `observ`,
  // "payrol" → `payrol`): the stem of a word whose ending was mistyped. The ending counts as one typo.
  for (let length = MIN_STEM_PREFIX; length < raw.length; length++) {
    const head = raw.slice(0, length);
    if (head !== stem && has(head) && !/\p{N}/u.test(head)) keepBest(found, head, 1);
  }
  if (budget >= 2) {
    // First-letter edits, the rest exact: substitution, insertion before, deletion, swap of the first two.
    const tail = stem.slice(1);
    for (const term of dictionary.tails.get(tail) ?? []) if (term !== stem) keepBest(found, term, 2);
    for (const term of dictionary.tails.get(stem) ?? []) keepBest(found, term, 2);
    if (has(tail)) keepBest(found, tail, 2);
    const swapped = `${stem[1] ?? ''}${first}${stem.slice(2)}`;
    if (swapped !== stem && has(swapped)) keepBest(found, swapped, 2);
  }
  return [...found].map(([term, typos]) => ({ term, typos, exact: false }));
}

/**
 * Ways to read one typed word as two indexed words ("mongodb" → `mongo` + `db`,
 * "digitalocean" → `digit` + `ocean`): every cut leaving at least one character on the left and two on the right ("ycombinator" → `y` + `combin`)
 * whose halves, run through the index pipeline, are both index terms. At most three, shortest
 * left half first; words of digits only are never cut.
 * @example compoundSplits('mongodb', has) // [['mongo', 'db']]
 */
export function compoundSplits(raw: string, has: (term: string) => boolean): [string, string][] {
  if (raw.length < 4 || raw.length > 24 || /^\p{N}+$/u.test(raw)) return [];
  const splits: [string, string][] = [];
  for (let cut = 1; cut <= raw.length - 2 && splits.length < 3; cut++) {
    const left = processToken(raw.slice(0, cut));
    if (left === undefined || !has(left)) continue;
    const right = processToken(raw.slice(cut));
    if (right !== undefined && has(right)) splits.push([left, right]);
  }
  return splits;
}

/**
 * Optimal-string-alignment distance (a swap of neighbours is one edit) between `a` and `b`, or
 * with `shortestPrefix`, between `a` and the closest prefix of `b` at least that long; `budget + 1`
 * as soon as every path exceeds `budget`.
 * @example boundedDistance('databas', 'databs', 1) // 1
 */
export function boundedDistance(a: string, b: string, budget: number, shortestPrefix = b.length): number {
  const from = Math.max(0, Math.min(shortestPrefix, b.length));
  if (a.length - b.length > budget || from - a.length > budget) return budget + 1;
  let before = new Int32Array(b.length + 1);
  let previous = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    // Early exit: distances never shrink down the table, so a row over budget ends the search.
    if (rowMin > budget) return budget + 1;
    [before, previous, current] = [previous, current, before];
  }
  let best = budget + 1;
  for (let j = from; j <= b.length; j++) best = Math.min(best, previous[j] as number);
  return best;
}

// --- internal ---

/** Longest word ending a misspelt word may carry beyond its stem (see `typoMatches`). */
const SUFFIX = 3;
/** Shortest term read as the stem of a longer word as typed (shorter ones are too often other words). */
const MIN_STEM_PREFIX = 5;

function bucketKey(first: string, length: number): string {
  return `${first}${length}`;
}

function push(map: Map<string, string[]>, key: string, term: string): void {
  const list = map.get(key);
  if (list) list.push(term);
  else map.set(key, [term]);
}

function keepBest(found: Map<string, number>, term: string, typos: number): void {
  const known = found.get(term);
  if (known === undefined || typos < known) found.set(term, typos);
}
