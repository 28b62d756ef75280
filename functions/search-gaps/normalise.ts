/**
 * The text a search-gap count is kept under: folded like search folds it (case, accents,
 * punctuation) so "Notion discount!" and "notion  discount" count as one, and scrubbed of what
 * could identify a person (an e-mail address, a phone or card number) before it is stored.
 */

/** Longest normalised text kept; longer queries are cut at a word. */
export const MAX_QUERY_CHARS = 100;

const EMAIL = /[^\s@]+@[^\s@]+/g;
/** Seven or more digits, possibly spaced or dashed: phone, card and account numbers. */
const LONG_NUMBER = /\+?\d(?:[\s().-]*\d){6,}/g;

/**
 * @returns the normalised text, or undefined when nothing searchable is left
 * @example normaliseQuery('  Free AWS credits?? ') // 'free aws credits'
 * @example normaliseQuery('call me at +44 20 7946 0958') // 'call me at #number'
 */
export function normaliseQuery(text: string): string | undefined {
  const words = text
    .slice(0, 1_000)
    .replace(EMAIL, ' @email ')
    .replace(LONG_NUMBER, ' #number ')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    // Keep the two placeholders' marks so they cannot be mistaken for a word someone typed.
    .split(/[^\p{L}\p{N}@#]+/u)
    .flatMap((word) => (word === '@email' || word === '#number' ? [word] : word.split(/[@#]+/)))
    .filter((word) => word.length > 0);
  let kept = '';
  for (const word of words) {
    const next = kept === '' ? word : `${kept} ${word}`;
    if (next.length > MAX_QUERY_CHARS) break;
    kept = next;
  }
  return kept === '' ? undefined : kept;
}
