/**
 * Filter forms: deals (category + status) on /deals/, with and without JavaScript, and startups
 * (category, country, minimum revenue) on /startups/. The cards must be exactly what the JSON API
 * answers for the same filters.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { cardTitles, getJson, openPage, shownResults, type ApiDeal, type ApiStartup, type DealList, type StartupList } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { countryName } from '../../../src/catalog/labels.ts';

const api = (path: string, query: Record<string, string>) => e2e().url(`${path}?${new URLSearchParams(query)}`);

/** Every deal of a scope, any status. */
async function allDeals(scope: 'deals' | 'programs' | 'all'): Promise<ApiDeal[]> {
  return (await getJson<DealList>(api('/api/v1/deals', { scope, status: 'all' }))).deals;
}

/** The category with the most deals of `status` (ties: alphabetical), among `deals`. */
function busiestCategory(deals: ApiDeal[], status: string): string {
  const counts = new Map<string, number>();
  for (const d of deals) if (d.status === status) counts.set(d.category, (counts.get(d.category) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (!best) throw new Error(`no deal has status ${status}`);
  return best[0];
}

/** Slugs of the deal cards on a page, from their links. */
async function cardSlugs(page: Page): Promise<string[]> {
  const hrefs = await page.locator('[data-results] > li.card h3 a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((href) => /^\/deals\/([^/]+)\/$/.exec(href)?.[1] ?? `(unexpected href ${href})`);
}

async function expectAllIn(page: Page, category: string, status: string): Promise<void> {
  const bySlug = new Map((await allDeals('all')).map((d) => [d.slug, d]));
  const slugs = await cardSlugs(page);
  expect(slugs.length).toBeGreaterThan(0);
  const wrong = slugs.filter((s) => bySlug.get(s)?.category !== category || bySlug.get(s)?.status !== status);
  expect(wrong.map((s) => ({ slug: s, category: bySlug.get(s)?.category, status: bySlug.get(s)?.status }))).toEqual([]);
}

export function filtersSuite(): void {
  describe('deal filters', () => {
    test('without JavaScript: category + status on /deals/ land on /deals/search/ with only that category and status', async () => {
      const category = busiestCategory(await allDeals('deals'), 'active');
      const expected = await getJson<DealList>(api('/api/v1/deals', { category, status: 'active', scope: 'deals', limit: '48' }));
      expect(expected.deals.length).toBeGreaterThan(0);
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/deals/'));
        await page.locator('select[name=category]').selectOption(category);
        await page.locator('select[name=status]').selectOption('active');
        await Promise.all([page.waitForURL('**/deals/search/?**'), page.getByRole('button', { name: 'Filter' }).click()]);
        const url = new URL(page.url());
        expect(url.searchParams.get('category')).toBe(category);
        expect(url.searchParams.get('status')).toBe('active');
        expect(await cardTitles(page)).toEqual(expected.deals.map((d) => d.title));
        await expectAllIn(page, category, 'active');
        // The answer page keeps the chosen filters selected.
        expect(await page.locator('select[name=category]').inputValue()).toBe(category);
        expect(await page.locator('select[name=status]').inputValue()).toBe('active');
      } finally {
        await close();
      }
    });

    test('with JavaScript: choosing category + status updates the list in place, then submitting shows the same results', async () => {
      const deals = await allDeals('deals');
      // Prefer a status other than the default view's, so the filter visibly changes the list.
      const status = deals.some((d) => d.status === 'limited') ? 'limited' : 'active';
      const category = busiestCategory(deals, status);
      const expected = await getJson<DealList>(api('/api/v1/deals', { category, status, scope: 'deals', limit: '48' }));
      const titles = expected.deals.map((d) => d.title);
      expect(titles.length).toBeGreaterThan(0);
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/deals/'));
        await page.locator('select[name=category]').selectOption(category);
        await page.locator('select[name=status]').selectOption(status);
        await expect.poll(() => shownResults(page), { timeout: 10_000 }).toEqual({ titles, summary: `${expected.stats.total} matching; showing ${titles.length}.` });
        // The address names the filtered list already (same document); submitting loads the search page for it.
        expect(new URL(page.url()).pathname).toBe('/deals/search/');
        expect(new URL(page.url()).searchParams.get('category')).toBe(category);
        await expectAllIn(page, category, status);
        await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Filter' }).click()]);
        expect(await cardTitles(page)).toEqual(titles);
        await expectAllIn(page, category, status);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test.each([
      { path: '/deals/', other: 'programs' as const },
      { path: '/programs/', other: 'deals' as const },
    ])('a $other category offered in the category menu of $path shows its deals (as GET /api/v1/deals?category= does)', async ({ path, other }) => {
      const otherCategories = new Set((await allDeals(other)).map((d) => d.category));
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url(path));
        const offered = await page.locator('select[name=category] option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
        const results: { category: string; titles: string[] }[] = [];
        const expected: { category: string; titles: string[] }[] = [];
        // Up to three such categories, to keep the run short.
        for (const category of offered.filter((c) => otherCategories.has(c)).slice(0, 3)) {
          const live = await getJson<DealList>(api('/api/v1/deals', { category, limit: '48' }));
          expected.push({ category, titles: live.deals.map((d) => d.title) });
          await page.goto(e2e().url(path));
          await page.locator('select[name=category]').selectOption(category);
          await Promise.all([page.waitForURL('**/deals/search/?**'), page.getByRole('button', { name: 'Filter' }).click()]);
          results.push({ category, titles: await cardTitles(page) });
        }
        // Either the menu offers no such category, or choosing one shows that category's entries.
        expect(results).toEqual(expected);
      } finally {
        await close();
      }
    });
  });

  describe('startup filters', () => {
    /** Filters chosen from the data: the biggest category, its commonest country, a revenue floor that removes some. */
    async function chooseFilters(): Promise<{ all: ApiStartup[]; category: string; country: string; minRevenue: number }> {
      const all = (await getJson<StartupList>(e2e().url('/api/v1/startups'))).startups;
      const tally = (values: string[]) => [...values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>())].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      const category = tally(all.map((s) => s.category))[0]?.[0];
      if (!category) throw new Error('no startups');
      const inCategory = all.filter((s) => s.category === category);
      const country = tally(inCategory.flatMap((s) => (s.country ? [s.country] : [])))[0]?.[0] ?? '';
      const revenues = inCategory.map((s) => s.revenue ?? 0).sort((a, b) => a - b);
      // A multiple of 1000 (the input's step), above the smallest revenue so the floor removes something.
      const minRevenue = Math.floor(((revenues[Math.floor(revenues.length / 2)] ?? 0) + 1) / 1000) * 1000;
      return { all, category, country, minRevenue };
    }

    async function filterStartups(javaScriptEnabled: boolean, values: Record<string, string>): Promise<{ names: string[]; meta: string[]; summary: string; url: URL }> {
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled });
      try {
        await page.goto(e2e().url('/startups/'));
        if (values.category) await page.locator('select[name=category]').selectOption(values.category);
        if (values.country) await page.locator('select[name=country]').selectOption(values.country);
        if (values.minRevenue) await page.locator('input[name=minRevenue]').fill(values.minRevenue);
        await Promise.all([page.waitForURL('**/startups/search/?**'), page.getByRole('button', { name: 'Filter' }).click()]);
        return {
          names: (await page.locator('main ul.grid > li.card h3').allTextContents()).map((t) => t.trim()),
          meta: (await page.locator('main ul.grid > li.card > p.muted').allTextContents()).map((t) => t.trim()),
          summary: ((await page.locator('main h1 + p').textContent()) ?? '').trim(),
          url: new URL(page.url()),
        };
      } finally {
        await close();
      }
    }

    test("without JavaScript: category + country + min revenue show exactly GET /api/v1/startups with the same filters (for sale, the form's default)", async () => {
      const { all, category, country, minRevenue } = await chooseFilters();
      const filters = { category, country, minRevenue: String(minRevenue) };
      const expected = await getJson<StartupList>(api('/api/v1/startups', { ...filters, forSale: 'true' }));
      expect(expected.startups.length).toBeGreaterThan(0);
      expect(expected.startups.length).toBeLessThan(all.length);
      const shown = await filterStartups(false, filters);
      expect(shown.url.pathname).toBe('/startups/search/');
      expect(Object.fromEntries(['category', 'country', 'minRevenue', 'forSale'].map((k) => [k, shown.url.searchParams.get(k)]))).toEqual({ ...filters, forSale: 'true' });
      expect(shown.names).toEqual(expected.startups.map((s) => s.name));
      expect(shown.summary).toBe(`${expected.total} matching; showing ${expected.startups.length}.`);
      // The card's facts in words (issue 15): the category's name and the country's, never the codes.
      const categoryName = (await getJson<{ startups: { slug: string; name: string }[] }>(e2e().url('/api/v1/categories'))).startups.find((c) => c.slug === category)?.name;
      for (const line of shown.meta) expect(line.startsWith(`${categoryName} · ${countryName(country)}`)).toBe(true);
    });

    test("with JavaScript: category + min revenue show exactly GET /api/v1/startups with the same filters (for sale, the form's default)", async () => {
      const { all, category, minRevenue } = await chooseFilters();
      const filters = { category, minRevenue: String(minRevenue) };
      const expected = await getJson<StartupList>(api('/api/v1/startups', { ...filters, forSale: 'true' }));
      expect(expected.startups.length).toBeGreaterThan(0);
      expect(expected.startups.length).toBeLessThan(all.filter((s) => s.category === category).length);
      expect(expected.startups.every((s) => s.category === category && (s.revenue ?? 0) >= minRevenue)).toBe(true);
      const shown = await filterStartups(true, filters);
      expect(shown.names).toEqual(expected.startups.map((s) => s.name));
      expect(shown.summary).toBe(`${expected.total} matching; showing ${expected.startups.length}.`);
    });
  });
}
