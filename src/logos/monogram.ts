/**
 * The logo of a record that has none (or whose logo could not be used): its name's initials on
 * a colour chosen from the name, as a small SVG whose text the browser draws. Pure: the build,
 * the Astro build and the server (for a deal created after the build) make the same image.
 */

/** Side of every logo image, in pixels (cards show it at 48 CSS px, so it is sharp at 2x). */
export const LOGO_SIZE = 96;

/**
 * Tile colours, each with a contrast of at least 4.5:1 against the white initials (WCAG AA for
 * text; tests/unit/logos.test.ts checks every one).
 */
export const MONOGRAM_COLOURS = ['#1d4ed8', '#0f766e', '#15803d', '#b45309', '#b91c1c', '#7e22ce', '#be185d', '#4338ca', '#0e7490', '#475569', '#a21caf', '#c2410c'] as const;

/** Shown when a name has no letter or digit at all (only emoji or punctuation). */
export const NO_INITIALS = '#';

/**
 * One or two initials, Unicode-aware: the first letter (or digit) of the first two words,
 * skipping small linking words when others remain ("Google for Startups" → "GS"); a single
 * word split at its humps ("PostHog" → "PH"), else its first letter. Upper case when that stays
 * one character ("ß" stays "ß").
 * @example initials('Amazon Web Services') // 'AW'
 * @example initials('Москва Fund') // 'МF'
 */
export function initials(name: string): string {
  let words: string[] = name.normalize('NFC').match(WORD) ?? [];
  const meaningful = words.filter((w) => !LINKING_WORDS.has(w.toLowerCase()));
  if (meaningful.length > 0) words = meaningful;
  if (words.length === 1) words = (words[0] as string).split(HUMP);
  const letters = words.slice(0, 2).map((word) => upper(firstGrapheme(word)));
  return letters.join('') || NO_INITIALS;
}

/**
 * The tile colour for a name: the same name (whatever its case or Unicode form) always gets the
 * same colour, so one provider's deals look alike.
 * @example monogramColour('Stripe') === monogramColour('stripe') // true
 */
export function monogramColour(name: string): string {
  return MONOGRAM_COLOURS[fnv1a(name.normalize('NFC').trim().toLowerCase()) % MONOGRAM_COLOURS.length] as string;
}

/**
 * The monogram image of a name, as SVG text (a few hundred bytes).
 * @example monogramSvg('Stripe') // '<svg xmlns=… <text …>S</text></svg>'
 */
export function monogramSvg(name: string): string {
  const text = initials(name);
  const size = [...graphemes(text)].length > 1 ? 38 : 46;
  const half = LOGO_SIZE / 2;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${LOGO_SIZE}" height="${LOGO_SIZE}" viewBox="0 0 ${LOGO_SIZE} ${LOGO_SIZE}">` +
    `<rect width="${LOGO_SIZE}" height="${LOGO_SIZE}" fill="${monogramColour(name)}"/>` +
    `<text x="${half}" y="${half}" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="${size}" font-weight="600" fill="#ffffff">${escapeXml(text)}</text>` +
    '</svg>'
  );
}

// --- internal ---

/** A run of letters, combining marks and digits (the words of a name). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/** Where one word has a hump, a capital after a small letter: "PostHog" → "Post", "Hog"; "OVHcloud" stays whole. */
const HUMP = /(?<=\p{Ll}\p{M}*)(?=[\p{Lu}\p{Lt}])/u;
const LINKING_WORDS = new Set(['a', 'an', 'and', 'for', 'of', 'the']);

const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });

function graphemes(text: string): Iterable<string> {
  return [...segmenter.segment(text)].map((s) => s.segment);
}

function firstGrapheme(word: string): string {
  for (const grapheme of graphemes(word)) return grapheme;
  return '';
}

/** Upper case unless that changes the number of characters ("ß" → "SS" would be two initials). */
function upper(grapheme: string): string {
  const upperCased = grapheme.toUpperCase();
  return [...graphemes(upperCased)].length === 1 ? upperCased : grapheme;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

/** 32-bit FNV-1a over the UTF-8 bytes: small, stable across runtimes and builds. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
