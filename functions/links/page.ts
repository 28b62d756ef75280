/**
 * What the link checker reads of an HTML page: its title and its visible text, and how alike
 * two pages' texts are. Deliberately rough (regular expressions, no DOM): it needs the words a
 * person would see first, not a faithful rendering; a page drawn by JavaScript has little text
 * here, which the classifier takes into account.
 */

export interface Page {
  /** The `<title>`, entities decoded, spaces collapsed ('' when none). */
  title: string;
  /** The visible text of the body in document order, spaces collapsed. */
  text: string;
}

/**
 * @example readPage('<title>Not found</title><p>Sorry &amp; bye</p>') // { title: 'Not found', text: 'Sorry & bye' }
 */
export function readPage(html: string): Page {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1] ?? '';
  const body = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<head\b[\s\S]*?<\/head\s*>/i, ' ')
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ');
  return { title: collapse(decodeEntities(title)), text: collapse(decodeEntities(body)).slice(0, MAX_TEXT) };
}

/** Lower case, typographic apostrophes as `'`, runs of spaces as one: the form phrases are matched in. */
export function normaliseText(text: string): string {
  return collapse(text.toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'"));
}

/**
 * The first phrase that `text` contains as whole words, or undefined.
 * @example findPhrase('Error 404 – Acme', ['404']) // '404'
 */
export function findPhrase(text: string, phrases: readonly string[]): string | undefined {
  const normalised = normaliseText(text);
  return phrases.find((phrase) => wholeWords(phrase, 'u').test(normalised));
}

/**
 * The text with every whole-word occurrence of the phrases taken out (in any case).
 * @example withoutPhrases('No /deals/acme here', ['/deals/acme']) // 'No here'
 */
export function withoutPhrases(text: string, phrases: readonly string[]): string {
  return collapse(phrases.reduce((rest, phrase) => rest.replace(wholeWords(phrase, 'giu'), '$1 '), text));
}

/**
 * How alike two texts are, from 0 to 1: the Jaccard index of their sets of three-word
 * sequences ("shingles", as near-duplicate detection uses them): the share of sequences the
 * two have in common. 1 for the same words in the same order, near 0 for unrelated texts; one
 * changed word changes at most three sequences, so a page that differs from another only by
 * the path it echoes stays close to 1. Texts of fewer than three words compare as single words.
 * @example textSimilarity('the page was not found here', 'the page was not found there') // 0.6
 */
export function textSimilarity(a: string, b: string): number {
  const left = shingles(a);
  const right = shingles(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const shingle of left) if (right.has(shingle)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/** The number of words in a text. */
export function wordCount(text: string): number {
  return words(text).length;
}

// --- internal ---

/** Enough of a page to judge it; the rest would only slow the comparison. */
const MAX_TEXT = 20_000;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', rsquo: '’', lsquo: '‘', ndash: '–', mdash: '—', hellip: '…' };

/** The entities a page's words commonly hold; others stay as written, which only costs a match. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function words(text: string): string[] {
  return normaliseText(text).match(/[\p{L}\p{N}']+/gu) ?? [];
}

function shingles(text: string): Set<string> {
  const list = words(text);
  if (list.length < 3) return new Set(list);
  const set = new Set<string>();
  for (let i = 0; i + 3 <= list.length; i++) set.add(`${list[i]} ${list[i + 1]} ${list[i + 2]}`);
  return set;
}

/** The phrase, not as part of a longer word: `404` matches in `Error 404`, not in `14045`. */
function wholeWords(phrase: string, flags: string): RegExp {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}(?=$|[^\\p{L}\\p{N}])`, flags);
}
