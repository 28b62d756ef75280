/**
 * Words as search compares them outside the index (synonyms, suggestions): no lunr here, so the
 * site's browser script can use it without shipping the index code.
 */

/**
 * The words of a text: lower-case, accents removed, split on anything that is not a letter or a digit.
 * @example foldWords('Équity-free!') // ['equity', 'free']
 */
export function foldWords(text: string): string[] {
  return text
    .slice(0, 2_000)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}
