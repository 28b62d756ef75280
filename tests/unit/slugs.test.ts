/**
 * The one slug maker (`slugify` in src/schemas/fields.ts, on `@sindresorhus/slugify`): letters
 * are transliterated, not dropped (issue 16, item 6); at most 80 characters; empty when the
 * text has nothing to keep (callers then fall back: admin-deals asks for a slug, an approved
 * submission takes its id).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SLUG_PATTERN } from '../../src/schemas/fields.ts';
import { slugify } from '../../src/schemas/slugify.ts';

describe('slugify', () => {
  test.each([
    ['Café Crème', 'cafe-creme'],
    ['Straße', 'strasse'],
    ['Москва Fund', 'moskva-fund'],
    ['Ärger über Öl', 'aerger-ueber-oel'],
    ['Łódź Ventures', 'lodz-ventures'],
    ['Việt Nam Grants', 'viet-nam-grants'],
    ['Stripe Atlas: $100 off', 'stripe-atlas-100-off'],
    ['Acme Vector DB: $5,000 in credits', 'acme-vector-db-5-000-in-credits'],
    ['AT&T Credits', 'at-and-t-credits'],
    // Brand names stay whole (no splitting at capitals).
    ['GitHub for Startups', 'github-for-startups'],
    ['  --Already--a--slug--  ', 'already-a-slug'],
  ])('%j → %j', (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });

  test('is empty when nothing can be kept', () => {
    expect(slugify('')).toBe('');
    expect(slugify('!!! ???')).toBe('');
    expect(slugify('東京')).toBe('');
  });

  test('is at most 80 characters and never ends with a hyphen', () => {
    const slug = slugify(`${'a'.repeat(79)} b c`);
    expect(slug).toBe('a'.repeat(79));
    expect(slugify('word '.repeat(40))).toMatch(/^(?:word-){15}word$/);
  });

  test('whatever the text, the result is empty or a valid slug of at most 80 characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const slug = slugify(text);
        return slug === '' || (SLUG_PATTERN.test(slug) && slug.length <= 80);
      }),
      { numRuns: 2000 },
    );
  });
});
