/**
 * The logo of a record that has none (or whose logo could not be used): its name's initials on
 * a colour chosen from the name, drawn as HTML text, not an image: each SVG image costs the
 * browser a document of its own on the main thread (50–150 ms per card on a throttled phone,
 * docs/performance.md). Pure: the build, the server and the browser draw the same monogram.
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
 * The monogram of a name: its initials and tile colour, which pages draw as a coloured square
 * of text (logo-markup.ts) rather than an image.
 * @example monogram('Stripe') // { initials: 'S', colour: '#…', single: true }
 */
export function monogram(name: string): { initials: string; colour: string; single: boolean } {
  const text = initials(name);
  return { initials: text, colour: monogramColour(name), single: [...graphemes(text)].length === 1 };
}

// --- internal ---

/** A run of letters, combining marks and digits (the words of a name). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/** Where one word has a hump, a capital after a small letter: "PostHog" → "Post", "Hog"; "OVHcloud" stays whole. */
const HUMP = /(?<=\p{Ll}\p{M}*)(?=[\p{Lu}\p{Lt}])/u;
const LINKING_WORDS = new Set(['a', 'an', 'and', 'for', 'of', 'the']);

/** Made on first use: making one takes 16 ms, and the server imports this module at start for its constants. */
let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): Iterable<string> {
  segmenter ??= new Intl.Segmenter('und', { granularity: 'grapheme' });
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

/** 32-bit FNV-1a over the UTF-8 bytes: small, stable across runtimes and builds. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
