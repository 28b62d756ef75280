/**
 * One tokenization for indexing and querying: fold case and accents, split on anything that is
 * not a letter or a digit, then lunr's stop-word filter and stemmer. Queries never go
 * through lunr's query parser, so no user text can make it throw.
 */
import lunr from 'lunr';
import { LRUCache } from 'lru-cache';

/** Word separator used by the index builder and the query side alike. */
export const SEPARATOR = /[^\p{L}\p{N}]+/u;

/** At most this many words of a query are used; the rest is ignored (10 KB queries stay cheap). */
export const MAX_QUERY_WORDS = 16;
const MAX_WORD_LENGTH = 40;

/** One query word: the stemmed form that must match, and the raw form for prefix matching. */
export interface QueryWord {
  stem: string;
  raw: string;
  /** The last word of the query also matches as a prefix ("search as you type"). */
  prefix: boolean;
  /**
   * Other texts that count as this word, matched exactly (editors' synonyms: "yc" →
   * "y combinator"); a text of several words needs all of them in one document.
   */
  alternatives?: readonly string[];
}

/**
 * Words of a free-text query, stop words removed.
 * @example queryWords('AWS cred') // [{ stem: 'aw', raw: 'aws', prefix: false }, { stem: 'cred', raw: 'cred', prefix: true }]
 */
export function queryWords(text: string): QueryWord[] {
  const raw = foldText(text.slice(0, 2_000))
    .split(SEPARATOR)
    .filter((w) => w.length > 0)
    .slice(0, MAX_QUERY_WORDS)
    .map((w) => w.slice(0, MAX_WORD_LENGTH));
  const words: QueryWord[] = [];
  raw.forEach((word, i) => {
    const stem = queryStem(word);
    if (stem) words.push({ stem, raw: word, prefix: i === raw.length - 1 });
  });
  return words;
}

/**
 * Case and accents folded (DESIGN "search syntax": case- and accent-insensitive): compatibility
 * decomposition, combining marks dropped, then recomposed so scripts whose letters decompose
 * without marks (Hangul) come back whole.
 * @example foldText('Zürich Café') // 'zurich cafe'
 */
export function foldText(text: string): string {
  // ASCII has nothing to decompose, no marks and nothing to recompose: only case to fold.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .toLowerCase();
}

/** Printable ASCII, tabs and line breaks (other text takes the whole folding, which is right for any text). */
const ASCII = /^[\t\n\r -~]*$/;

/** Words joined by in-word punctuation: "next.js", "e-mail", "pre-seed", "y-combinator". */
const JOINED = /[\p{L}\p{N}]+(?:[.\-_'’+/][\p{L}\p{N}]+)+/gu;

/**
 * A field's text as the index sees it: folded, and each punctuation-joined word also written
 * whole, so "Next.js" is indexed as `next`, `js` and `nextjs` and a query typed either way
 * finds it. Numbers are not joined ("1.5" must not become "15").
 * @example indexText('Next.js on Vercel') // 'next.js on vercel nextjs'
 */
export function indexText(text: string): string {
  const folded = foldText(text);
  const joined: string[] = [];
  for (const [match] of folded.matchAll(JOINED)) {
    const whole = match.replace(/[^\p{L}\p{N}]+/gu, '');
    if (/\p{L}/u.test(whole)) joined.push(whole);
  }
  return joined.length ? `${folded} ${joined.join(' ')}` : folded;
}

/**
 * The indexing pipeline after tokenizing. lunr's own trimmer is left out: it strips ASCII
 * `\W`, which would erase words in other scripts (`東京`, `москва`), and SEPARATOR already
 * leaves no punctuation at word ends.
 */
export const INDEX_PIPELINE = [lunr.stopWordFilter, lunr.stemmer] as const;

/** Run one lower-cased word through the indexing pipeline; undefined for stop words. */
export function processToken(word: string): string | undefined {
  let token: lunr.Token | undefined = new lunr.Token(word, {});
  for (const step of INDEX_PIPELINE) {
    const out = (step as unknown as (t: lunr.Token) => lunr.Token | undefined)(token);
    if (!out) return undefined;
    token = out;
  }
  const text = token.toString();
  return text.length > 0 ? text : undefined;
}

/**
 * `processToken` of a word typed in a query, kept for the words typed last: lunr's stemmer runs
 * a dozen regular expressions per word, a tenth of an uncached search, and queries repeat words.
 * @example queryStem('credits') // 'credit'
 */
export function queryStem(word: string): string | undefined {
  const known = queryStems.get(word);
  if (known !== undefined) return known === '' ? undefined : known;
  const stem = processToken(word);
  queryStems.set(word, stem ?? '');
  return stem;
}

/**
 * Stems of query words ('' for a stop word), at most 40 characters each (MAX_WORD_LENGTH; joined
 * pairs 80): 10,000 words take at most about 3 MB. Bounded by a size of one per word rather than
 * `max`, for which lru-cache would set out every slot at once and fill them all again on `clear`.
 */
const queryStems = new LRUCache<string, string>({ maxSize: 10_000, sizeCalculation: () => 1 });

/** Forget every kept stem: for a benchmark of words never searched before (`npm run bench:in-process -- search --words new`). */
export function forgetQueryStems(): void {
  queryStems.clear();
}

/**
 * lunr's tokenizer splits where its separator matches, testing one UTF-16 unit at a time: a
 * character beyond the BMP is two units, neither a letter alone, so it separates words too.
 * This is that split in one pass of one regular expression: lunr's own made a `Token` and a
 * metadata object per word and ran the separator once per character, a quarter of indexing
 * (docs/performance.md, thirteenth sitting). tests/unit/tokens.test.ts holds it to lunr's.
 */
const INDEX_SEPARATOR = /(?:[^\p{L}\p{N}]|[\u{10000}-\u{10FFFF}])+/u;

/**
 * The index terms of one field's text, exactly as the lunr builder derives them (`indexText`,
 * lunr's tokenizer with SEPARATOR, then INDEX_PIPELINE), repeats kept.
 * @param memo each word's term (`null`: a stop word), shared across calls: a build indexing
 * thousands of records stems each distinct word once instead of every time it occurs
 * @example fieldTerms('Cloud credits for startups') // ['cloud', 'credit', 'startup']
 */
export function fieldTerms(text: string, memo?: Map<string, string | null>): string[] {
  const terms: string[] = [];
  // lunr lower-cases the whole text before it splits it.
  for (const word of indexText(text).toLowerCase().split(INDEX_SEPARATOR)) {
    if (word === '') continue;
    let term = memo?.get(word);
    if (term === undefined) {
      term = processToken(word) ?? null;
      memo?.set(word, term);
    }
    if (term !== null) terms.push(term);
  }
  return terms;
}
