/**
 * Which index terms a query word may stand for besides itself: terms within its typo budget
 * (DESIGN "search syntax": none under 5 letters, one for 5–8, two from 9, never on words with
 * digits) and the two halves of a compound typed as one word ("mongodb" → mongo + db). The
 * terms sharing the word's first letter are walked in sorted order as a trie would be: a term
 * reuses the distance rows of the prefix it shares with the term before it, and a prefix already
 * over budget skips every term that starts with it (binary search), so a word costs a few
 * hundred rows, not three full tables per term of its first letter and length.
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
  /** The index terms without a digit, in code-unit order (the index's own order). */
  sorted: string[];
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
 * Arrange a term list sorted by code units (as the index keeps it) for `typoMatches`.
 * @example const dictionary = dictionaryOf(index.terms)
 */
export function dictionaryOf(terms: readonly string[]): Dictionary {
  const sorted: string[] = [];
  const tails = new Map<string, string[]>();
  for (const term of terms) {
    if (/\p{N}/u.test(term)) continue;
    sorted.push(term);
    push(tails, term.slice(1), term);
  }
  return { sorted, tails };
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
  for (const { term, typos } of typoNeighbours(dictionary, stem, raw)) found.set(term, typos);
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
    const swapped = `${stem[1] ?? ''}${stem[0] ?? ''}${stem.slice(2)}`;
    if (swapped !== stem && has(swapped)) keepBest(found, swapped, 2);
  }
  return [...found].map(([term, typos]) => ({ term, typos, exact: false }));
}

/**
 * The terms within the typo budget of `raw` by edit distance alone (`typoMatches` adds the
 * stems of mistyped endings and first-letter typos): shorter terms first, then in index order,
 * the order a word's scores are summed in.
 * @example typoNeighbours(dictionary, 'hubspt', 'hubspt') // [{ term: 'hubspot', typos: 1 }]
 */
export function typoNeighbours(dictionary: Dictionary, stem: string, raw: string): { term: string; typos: number }[] {
  const budget = maxTypos(raw);
  if (budget === 0 || stem.length < 2) return [];
  // The index holds stems, and a misspelt word stems unpredictably ("acelerater" → `acelerat`,
  // not `acceler`), so a term may also be within budget of the word as typed less a short
  // ending (at most SUFFIX characters, what the stemmer would have cut), the ending counting as a
  // typo so that "hostxyz" is not read as `host` for free. Against the stem only within the
  // stem's own budget: "wedding" stems to `wed`, and `web` is one edit from that but not a typo
  // of "wedding".
  const targets = maxTypos(stem) === 0 ? [raw] : [raw, stem];
  const shortestPrefix = Math.max(0, raw.length - SUFFIX);
  const near: { term: string; typos: number }[] = [];
  walkNear(dictionary.sorted, stem[0] as string, targets, budget, (term, distance) => {
    if (term === stem) return;
    let typos = Math.min(distance(0, raw.length), targets.length > 1 ? distance(1, stem.length) : budget + 1);
    if (term.length >= MIN_STEM_PREFIX) {
      let prefix = budget;
      for (let j = shortestPrefix; j <= raw.length; j++) prefix = Math.min(prefix, distance(0, j));
      if (prefix < budget) typos = Math.min(typos, prefix + 1);
    }
    if (typos <= budget) near.push({ term, typos });
  });
  return near.sort((a, b) => a.term.length - b.term.length);
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
 * Every term of `sorted` starting with `first` that is within `budget` edits of a prefix of one
 * of `targets` (optimal string alignment: a swap of neighbours is one edit), in sorted order,
 * with `distance(t, j)`: the distance between the term and the first `j` characters of target
 * `t` where that is `budget` or less, some number above `budget` otherwise. Terms sharing a
 * prefix share its rows; a prefix whose rows are all over budget ends every term that starts
 * with it, since a row's smallest value never decreases down the table.
 * @example walkNear(['nation', 'notion'], 'n', ['notoin'], 1, (term, distance) => distance(0, 6)) // notion: 1
 */
export function walkNear(
  sorted: readonly string[],
  first: string,
  targets: readonly string[],
  budget: number,
  visit: (term: string, distance: (target: number, prefix: number) => number) => void,
): void {
  const code = first.charCodeAt(0);
  let index = firstIndex(sorted, 0, sorted.length, (term) => term >= first);
  const end = firstIndex(sorted, index, sorted.length, (term) => term.charCodeAt(0) !== code);
  const deepest = Math.max(...targets.map((target) => target.length)) + budget + 1;
  // One table per target, a row per depth: row d (cells d × width on) is the term's first d
  // characters against every prefix of the target.
  const widths = targets.map((target) => target.length + 1);
  const tables = targets.map((target, t) => {
    const cells = new Int32Array((deepest + 1) * (widths[t] as number));
    for (let j = 0; j <= target.length; j++) cells[j] = j;
    return cells;
  });
  let depth = 0;
  // Only cells within `budget` of the diagonal are computed (nextRow): any other is over budget.
  const distance = (t: number, prefix: number): number => (Math.abs(depth - prefix) > budget ? budget + 1 : ((tables[t] as Int32Array)[depth * (widths[t] as number) + prefix] as number));
  let previous = '';
  while (index < end) {
    const term = sorted[index] as string;
    // Rows are computed for all of `previous`, or up to where it was pruned, which the next term never shares.
    depth = commonPrefix(previous, term);
    let pruned = false;
    while (depth < term.length && !pruned) {
      depth++;
      pruned = true;
      for (let t = 0; t < targets.length; t++) if (nextRow(tables[t] as Int32Array, widths[t] as number, targets[t] as string, term, depth, budget) <= budget) pruned = false;
    }
    previous = term;
    if (pruned) {
      const prefix = term.slice(0, depth);
      index = firstIndex(sorted, index, end, (other) => !other.startsWith(prefix));
      continue;
    }
    visit(term, distance);
    index++;
  }
}

// --- internal ---

/** Longest word ending a misspelt word may carry beyond its stem (see `typoMatches`). */
const SUFFIX = 3;
/** Shortest term read as the stem of a longer word as typed (shorter ones are too often other words). */
const MIN_STEM_PREFIX = 5;

/**
 * Fill row `depth` of `cells` (the term's first `depth` characters against `target`) within
 * `budget` of the diagonal, the one cell either side set just over budget for the next row to
 * read: a cell further out is more than `budget` edits whatever the characters, so only a band
 * of 2 × budget + 1 cells is worked out, not the whole row. Returns the band's smallest value.
 */
function nextRow(cells: Int32Array, width: number, target: string, term: string, depth: number, budget: number): number {
  const current = depth * width;
  const previous = current - width;
  const before = depth > 1 ? previous - width : -1;
  const char = term.charCodeAt(depth - 1);
  const charBefore = depth > 1 ? term.charCodeAt(depth - 2) : -1;
  const over = budget + 1;
  const from = Math.max(1, depth - budget);
  const to = Math.min(width - 1, depth + budget);
  let smallest = over;
  if (depth <= budget) smallest = cells[current] = depth;
  else cells[current + from - 1] = over;
  if (to + 1 < width) cells[current + to + 1] = over;
  for (let j = from; j <= to; j++) {
    const other = target.charCodeAt(j - 1);
    let value = Math.min((cells[previous + j] as number) + 1, (cells[current + j - 1] as number) + 1, (cells[previous + j - 1] as number) + (char === other ? 0 : 1));
    if (before >= 0 && j > 1 && char === target.charCodeAt(j - 2) && charBefore === other) value = Math.min(value, (cells[before + j - 2] as number) + 1);
    cells[current + j] = value;
    if (value < smallest) smallest = value;
  }
  return smallest;
}

function commonPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The first index in [low, high) where `past` holds, given it holds for a suffix of the range. */
function firstIndex(sorted: readonly string[], low: number, high: number, past: (term: string) => boolean): number {
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (past(sorted[mid] as string)) high = mid;
    else low = mid + 1;
  }
  return low;
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
