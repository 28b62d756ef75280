/**
 * What an empty search says on the site and over MCP (src/catalog/empty-result.ts): what was
 * searched, and the categories whose name or slug shares a word with the query.
 */
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { nearestCategories, noResultsParts, noResultsText } from '../../src/catalog/empty-result.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const built = runPipeline(await readContent(join(ROOT, 'content')), { today: '2026-11-21', index: false });
const categories = built.value?.data.categories.deals ?? [];
const slugs = (query: string, scope: 'deals' | 'programs' | 'all' = 'all') => nearestCategories(query, categories, scope).categories.map((c) => c.slug);

describe('nearestCategories on the starter categories', () => {
  test('a query word naming a category finds it, typos and endings past the fifth letter included', () => {
    expect(slugs('accelerater without equity')).toEqual(['accelerators']);
    expect(slugs('grant for climate')).toEqual(['grants']);
    expect(slugs('incubators in paris')).toEqual(['incubators']);
    expect(slugs('AI')).toEqual(['ai-ml-credits']);
  });

  test('connectives never match (`and` is in several names)', () => {
    expect(nearestCategories('and or for', categories, 'all').matched).toBe(false);
  });

  test("only categories in the scope searched; none matching gives the scope's categories", () => {
    expect(slugs('accelerator', 'deals')).not.toContain('accelerators');
    const fallback = nearestCategories('zzqx', categories, 'programs');
    expect(fallback.matched).toBe(false);
    expect(fallback.categories.map((c) => c.slug)).toEqual(categories.filter((c) => c.scope === 'programs').map((c) => c.slug));
  });
});

describe('noResultsText', () => {
  test('says the query, the type searched and what to try', () => {
    expect(noResultsText('accelerater', 'all', nearestCategories('accelerater', categories, 'all'))).toBe('No deals matched “accelerater” in deals and programs; try the category Accelerators.');
    expect(noResultsText('grants', 'deals', nearestCategories('grants', categories, 'deals'), (c) => c.slug)).toMatch(
      /^No deals matched “grants” in deals only; try searching deals and programs together, or other or fewer words, or a category: cloud-credits, /,
    );
    expect(noResultsText(undefined, 'programs', { categories: [{ slug: 'grants', name: 'Grants' }], matched: true })).toBe(
      'No deals matched these filters in programs only; try searching deals and programs together, or the category Grants.',
    );
  });

  test('parts join into the text, so a page can link each category', () => {
    const alternatives = nearestCategories('cloud ai', categories, 'all');
    const parts = noResultsParts('cloud ai', 'all', alternatives);
    expect(`${parts.lead}${parts.categories.map((c) => c.name).join(', ')}${parts.tail}`).toBe(noResultsText('cloud ai', 'all', alternatives));
    expect(parts.lead).toBe('No deals matched “cloud ai” in deals and programs; try the categories ');
  });
});
