/**
 * One tokenization for indexing and querying: split on anything that is not a letter or a
 * digit, lower-case, then lunr's stop-word filter and stemmer. Queries never go
 * through lunr's query parser, so no user text can make it throw.
 */
import lunr from 'lunr';

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
}

/**
 * Words of a free-text query, stop words removed.
 * @example queryWords('AWS cred') // [{ stem: 'aw', raw: 'aws', prefix: false }, { stem: 'cred', raw: 'cred', prefix: true }]
 */
export function queryWords(text: string): QueryWord[] {
  const raw = text
    .slice(0, 2_000)
    .toLowerCase()
    .split(SEPARATOR)
    .filter((w) => w.length > 0)
    .slice(0, MAX_QUERY_WORDS)
    .map((w) => w.slice(0, MAX_WORD_LENGTH));
  const words: QueryWord[] = [];
  raw.forEach((word, i) => {
    const stem = processToken(word);
    if (stem) words.push({ stem, raw: word, prefix: i === raw.length - 1 });
  });
  return words;
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
 * The index terms of one field's text, exactly as the lunr builder derives them (tokenizer
 * with SEPARATOR, then INDEX_PIPELINE), repeats kept.
 * @example fieldTerms('Cloud credits for startups') // ['cloud', 'credit', 'startup']
 */
export function fieldTerms(text: string): string[] {
  const previous = lunr.tokenizer.separator;
  lunr.tokenizer.separator = SEPARATOR;
  try {
    return lunr.tokenizer(text)
      .map((token) => processToken(token.toString()))
      .filter((term): term is string => term !== undefined);
  } finally {
    lunr.tokenizer.separator = previous;
  }
}
