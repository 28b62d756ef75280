/**
 * The words people see for machine values (src/catalog/labels.ts): every enum value has a label,
 * dates and countries read as words, and a card never repeats its value in the line below it.
 */
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cardSummary, countryName, dealBadges, difficultyLabel, DIFFICULTY_LABELS, readableDate, slugWords, startupMeta, statusLabel, STATUS_LABELS } from '../../src/catalog/labels.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { DEAL_STATUSES, DIFFICULTIES } from '../../src/schemas/deal.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('enum labels', () => {
  test('every status and difficulty of the schema has words of its own', () => {
    expect(Object.keys(STATUS_LABELS).sort()).toEqual([...DEAL_STATUSES].sort());
    expect(Object.keys(DIFFICULTY_LABELS).sort()).toEqual([...DIFFICULTIES].sort());
    expect(DEAL_STATUSES.map(statusLabel)).toMatchInlineSnapshot(`
      [
        "Live",
        "Expired",
        "Coming soon",
        "Limited availability",
      ]
    `);
    expect(DIFFICULTIES.map(difficultyLabel)).toMatchInlineSnapshot(`
      [
        "Easy to apply",
        "Some effort to apply",
        "Demanding application",
      ]
    `);
  });

  test('an unknown value is shown, not dropped', () => {
    expect(statusLabel('on-hold')).toBe('on hold');
    expect(difficultyLabel('extreme')).toBe('extreme');
    expect(statusLabel('toString')).toBe('toString');
  });
});

describe('dates, countries and slugs', () => {
  test('ISO dates read as day, month name and year, whatever the server time zone', () => {
    expect(readableDate('2027-03-12')).toBe('12 March 2027');
    expect(readableDate('2026-01-01')).toBe('1 January 2026');
    expect(readableDate('next spring')).toBe('next spring');
  });

  test('country codes become names', () => {
    expect(['GB', 'FR', 'US', 'DE'].map(countryName)).toEqual(['United Kingdom', 'France', 'United States', 'Germany']);
    expect(countryName('XX')).toBe('XX');
    expect(countryName('not a code')).toBe('not a code');
  });

  test('slug-like subcategories and tags become words, abbreviations spelled as usual', () => {
    expect(['government-rd', 'b2b-ads', 'model-apis', 'innovate-uk', 'crm'].map(slugWords)).toEqual(['Government R&D', 'B2B ads', 'Model APIs', 'Innovate UK', 'CRM']);
    expect(slugWords('Already words')).toBe('Already words');
  });
});

describe('cards', () => {
  test('the line under the value drops the value when it starts with it', () => {
    expect(cardSummary('Up to $1,000 in AWS credits', 'Up to $1,000 in AWS credits for self-funded startups.')).toBe('For self-funded startups.');
    expect(cardSummary('Up to €36,000 in Scaleway credits', 'Up to €36,000 in Scaleway credits, plus expert support.')).toBe('Plus expert support.');
    expect(cardSummary('Free plan', 'Free plan.')).toBeUndefined();
    expect(cardSummary('Free plan', 'Credits for teams.')).toBe('Credits for teams.');
    expect(cardSummary(undefined, 'Credits for teams.')).toBe('Credits for teams.');
  });

  test('no starter deal card says its value twice', async () => {
    const built = runPipeline(await readContent(join(ROOT, 'content')), { today: '2026-11-21', index: false });
    const repeated = (built.value?.data.deals ?? []).filter((d) => d.value && cardSummary(d.value, d.shortDescription)?.toLowerCase().includes(d.value.toLowerCase()));
    expect(repeated.map((d) => d.slug)).toEqual([]);
    expect(built.value?.data.deals.length).toBeGreaterThan(0);
  });

  test('badges: sponsored, pick, a status other than live, difficulty, in words', () => {
    expect(dealBadges({ featured: true, recommended: true, status: 'coming-soon', difficulty: 'hard' })).toEqual([
      { text: 'Sponsored', kind: 'sponsored' },
      { text: 'Editor’s pick', kind: 'pick' },
      { text: 'Coming soon', kind: 'status' },
      { text: 'Demanding application', kind: 'plain' },
    ]);
    expect(dealBadges({ status: 'active' })).toEqual([]);
  });

  test('startup facts in words', () => {
    const categories = { startups: [{ slug: 'ai', name: 'AI products' }], sources: [{ slug: 'broker', name: 'Business broker' }] };
    expect(startupMeta({ category: 'ai', country: 'GB', source: 'broker' }, categories)).toBe('AI products · United Kingdom · via Business broker');
    expect(startupMeta({ category: 'other' }, categories)).toBe('other');
  });
});
