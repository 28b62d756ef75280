/**
 * The index's words (src/catalog/tokens.ts `fieldTerms`) are split in one pass rather than by
 * lunr's tokenizer; they must be the words lunr's tokenizer makes of the same text, with
 * SEPARATOR as its separator, whatever the text: other scripts, characters beyond the BMP
 * (letters among them), lone surrogates, case that changes length when lowered. ASCII text is
 * folded by lowering its case alone.
 */
import fc from 'fast-check';
import lunr from 'lunr';
import { describe, expect, test } from 'vitest';
import { fieldTerms, foldText, indexText, processToken, SEPARATOR } from '../../src/catalog/tokens.ts';

/** What the index held when lunr's tokenizer split the text: its tokens through the pipeline. */
function lunrTerms(text: string): string[] {
  const previous = lunr.tokenizer.separator;
  lunr.tokenizer.separator = SEPARATOR;
  try {
    return lunr
      .tokenizer(indexText(text))
      .map((token) => processToken(token.toString()))
      .filter((term): term is string => term !== undefined);
  } finally {
    lunr.tokenizer.separator = previous;
  }
}

const PIECES = [
  'cloud',
  'Credits',
  'the',
  ' ',
  '-',
  '.',
  'Next.js',
  'pre-seed',
  '1.5',
  '2026',
  'москва',
  '東京',
  'café',
  'İstanbul',
  'ǅ',
  'ﬃ',
  '𠀀',
  '𝐀𝐁',
  '🚀',
  '\ud800',
  '\udc00',
  'a\u0301',
  '\t\n',
  '’',
  "o'neil",
  'x𐐀y',
  '٣',
];

describe('fieldTerms', () => {
  test('the words of lunr’s tokenizer, for any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme' }),
          fc.string({ unit: 'binary' }),
          fc.array(fc.constantFrom(...PIECES)).map((parts) => parts.join('')),
        ),
        (text) => {
          expect(fieldTerms(text)).toEqual(lunrTerms(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('a letter beyond the BMP separates words, as in lunr; the same words with a memo', () => {
    expect(fieldTerms('cloud𠀀credits')).toEqual(['cloud', 'credit']);
    expect(lunrTerms('cloud𠀀credits')).toEqual(['cloud', 'credit']);
    const memo = new Map<string, string | null>();
    expect(fieldTerms('Cloud credits for the startups', memo)).toEqual(['cloud', 'credit', 'startup']);
    expect(fieldTerms('cloud credits', memo)).toEqual(['cloud', 'credit']);
    expect(memo.get('the')).toBeNull();
  });

  test('ASCII text is folded by lowering its case alone, as the whole folding would fold it', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)) }), (text) => {
        expect(foldText(text)).toBe(
          text
            .normalize('NFKD')
            .replace(/\p{M}+/gu, '')
            .normalize('NFC')
            .toLowerCase(),
        );
      }),
      { numRuns: 2000 },
    );
    expect(foldText('Zürich Café ǅ')).toBe('zurich cafe dz');
  });
});
