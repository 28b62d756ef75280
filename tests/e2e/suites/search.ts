/**
 * Deal search on /deals/: instant results from the JSON API with JavaScript, and the plain form
 * answered by /deals/search/ without it. Both must show what GET /api/v1/deals returns for the
 * same query with `scope=all`: the site's box searches deals and programs together unless a type
 * is chosen (DESIGN "search scope outside the API"), while the API keeps SPEC's default `deals`.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { cardTitles, getJson, openPage, shownResults, type DealList } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';

/** What the page asks the API for: the query, every type unless one is chosen, and `limit=48` (the page size). */
async function apiTitles(query: Record<string, string>): Promise<{ titles: string[]; total: number }> {
  const params = new URLSearchParams({ scope: 'all', ...query, limit: '48' });
  const list = await getJson<DealList>(e2e().url(`/api/v1/deals?${params}`));
  return { titles: list.deals.map((d) => d.title), total: list.stats.total };
}

/** Each result card's visible text, one line per element, for comparing cards drawn by the server and by the script. */
function cardTexts(page: Page): Promise<string[]> {
  return page
    .locator('[data-results] > li.card')
    .evaluateAll((cards) => cards.map((card) => [...card.querySelectorAll('h3, p, li')].map((e) => `${e.tagName.toLowerCase()}: ${e.textContent?.trim() ?? ''}`).join('\n')));
}

export function searchSuite(): void {
  describe('search', () => {
    test.each(['cloud', 'aws credits', 'analyt'])('instant search for "%s" updates the results in place, as GET /api/v1/deals returns them', async (query) => {
      const expected = await apiTitles({ search: query });
      expect(expected.titles.length).toBeGreaterThan(0);
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/deals/'));
        const before = await cardTitles(page);
        expect(before).not.toEqual(expected.titles);
        // A marker on the window survives only if the page is not reloaded.
        await page.evaluate(() => Object.assign(window, { e2eMarker: 'same document' }));
        const navigations: string[] = [];
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) navigations.push(frame.url());
        });
        const apiCalls: string[] = [];
        page.on('request', (request) => {
          if (new URL(request.url()).pathname === '/api/v1/deals') apiCalls.push(request.url());
        });
        const finalAnswer = page.waitForResponse((r) => {
          const url = new URL(r.url());
          return url.pathname === '/api/v1/deals' && url.searchParams.get('search') === query;
        });
        await page.getByRole('searchbox', { name: 'Search' }).pressSequentially(query, { delay: 25 });
        await finalAnswer;
        const want = { titles: expected.titles, summary: `${expected.total} matching; showing ${expected.titles.length}.` };
        await expect.poll(() => shownResults(page), { timeout: 10_000 }).toEqual(want);
        // Settled: nothing later replaces the results (answers to earlier keystrokes are dropped).
        await page.waitForTimeout(400);
        expect(await shownResults(page)).toEqual(want);
        // The address follows the list (history.replaceState, so the view can be shared): the same document, never a page load.
        expect(navigations.every((url) => new URL(url).pathname === '/deals/search/')).toBe(true);
        expect(new URL(page.url()).pathname).toBe('/deals/search/');
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ search: query, scope: 'all' });
        expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('same document');
        expect(apiCalls.length).toBeGreaterThan(0);
        const last = new URL(apiCalls.at(-1) ?? '');
        expect(last.searchParams.get('search')).toBe(query);
        expect(last.searchParams.get('scope')).toBe('all');
        expect(last.searchParams.get('limit')).toBe('48');
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test('clearing the search box lists every type (no type chosen), with the same cards the server draws for that list', async () => {
      const expected = await apiTitles({});
      const { page, close } = await openPage(e2e().browser);
      try {
        // The server's cards for the same list (the no-JavaScript answer to the empty form).
        await page.goto(e2e().url('/deals/search/?scope=all'));
        const built = await cardTexts(page);
        await page.goto(e2e().url('/deals/'));
        const box = page.getByRole('searchbox', { name: 'Search' });
        const cloud = await apiTitles({ search: 'cloud' });
        await box.fill('cloud');
        await expect.poll(() => shownResults(page), { timeout: 10_000 }).toEqual({ titles: cloud.titles, summary: `${cloud.total} matching; showing ${cloud.titles.length}.` });
        await box.fill('');
        await expect.poll(() => shownResults(page), { timeout: 10_000 }).toEqual({ titles: expected.titles, summary: `${expected.total} matching; showing ${expected.titles.length}.` });
        // Cards drawn by the script show what the server-rendered cards show (title, provider, value, labels).
        expect(await cardTexts(page)).toEqual(built);
      } finally {
        await close();
      }
    });

    test.each([true, false])('a search with no match says what was searched and offers categories, no cards (JavaScript: %s)', async (javaScriptEnabled) => {
      const query = 'zzqxj';
      const expected = await apiTitles({ search: query });
      expect(expected).toEqual({ titles: [], total: 0 });
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled });
      try {
        await page.goto(e2e().url('/deals/'));
        await page.getByRole('searchbox', { name: 'Search' }).fill(query);
        if (!javaScriptEnabled) await Promise.all([page.waitForURL('**/deals/search/?**'), page.getByRole('button', { name: 'Filter' }).click()]);
        const lead = 'No deals matched “zzqxj” in deals and programs; try other or fewer words, or a category: Cloud credits, ';
        await expect.poll(async () => (await shownResults(page)).summary.startsWith(lead), { timeout: 10_000 }).toBe(true);
        expect(await cardTitles(page)).toEqual([]);
        // Each offered category is a link to its page.
        expect(await page.locator('[data-summary] a').first().getAttribute('href')).toBe('/categories/cloud-credits/');
      } finally {
        await close();
      }
    });

    test.each([
      { start: '/deals/', javaScriptEnabled: true },
      { start: '/deals/', javaScriptEnabled: false },
      { start: '/', javaScriptEnabled: false },
    ])('a search for "accelerator" from the box on $start finds accelerators (JavaScript: $javaScriptEnabled)', async ({ start, javaScriptEnabled }) => {
      const accelerators = (await getJson<DealList>(e2e().url('/api/v1/deals?category=accelerators&limit=50'))).deals.map((d) => d.title);
      expect(accelerators.length).toBeGreaterThan(0);
      // The API keeps SPEC's default scope: the same search there sees no program.
      const apiDefault = await getJson<DealList>(e2e().url('/api/v1/deals?search=accelerator&limit=50'));
      expect(apiDefault.deals.map((d) => d.title).filter((t) => accelerators.includes(t))).toEqual([]);
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled });
      try {
        await page.goto(e2e().url(start));
        await page.getByRole('searchbox').first().fill('accelerator');
        if (!javaScriptEnabled)
          await Promise.all([
            page.waitForURL('**/deals/search/?**'),
            page
              .getByRole('button')
              .filter({ hasText: /Filter|Search/ })
              .first()
              .click(),
          ]);
        await expect.poll(async () => (await cardTitles(page)).filter((t) => accelerators.includes(t)).length, { timeout: 10_000 }).toBeGreaterThan(0);
      } finally {
        await close();
      }
    });

    test('without JavaScript the search form lands on /deals/search/ with the same first results', async () => {
      const query = 'cloud';
      const expected = await apiTitles({ search: query });
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/deals/'));
        await page.getByRole('searchbox', { name: 'Search' }).fill(query);
        await Promise.all([page.waitForURL('**/deals/search/?**'), page.getByRole('button', { name: 'Filter' }).click()]);
        const url = new URL(page.url());
        expect(url.pathname).toBe('/deals/search/');
        expect(url.searchParams.get('search')).toBe(query);
        expect(url.searchParams.get('scope')).toBe('all');
        expect(await page.locator('h1').textContent()).toBe('Search deals');
        expect(await cardTitles(page)).toEqual(expected.titles);
        expect((await page.locator('[data-summary]').textContent())?.trim()).toBe(`${expected.total} matching; showing ${expected.titles.length}.`);
        // The form keeps the query, so the visitor can refine it.
        expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(query);
      } finally {
        await close();
      }
    });

    test('instant search puts the list in the address: a reload and Back from a deal show the same list', async () => {
      const query = 'cloud';
      const expected = await apiTitles({ search: query });
      expect(expected.titles.length).toBeGreaterThan(1);
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/deals/'));
        await page.getByRole('searchbox', { name: 'Search' }).fill(query);
        await expect.poll(() => new URL(page.url()).searchParams.get('search'), { timeout: 10_000 }).toBe(query);
        const address = new URL(page.url());
        expect(address.pathname).toBe('/deals/search/');
        expect(address.searchParams.get('scope')).toBe('all');
        expect(address.searchParams.has('limit')).toBe(false);
        await expect.poll(() => cardTitles(page), { timeout: 10_000 }).toEqual(expected.titles);
        const first = expected.titles.slice(0, 3);
        await page.reload();
        expect((await cardTitles(page)).slice(0, 3)).toEqual(first);
        expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(query);
        await Promise.all([page.waitForURL('**/deals/*/'), page.locator('[data-results] > li.card h3 a').first().click()]);
        await page.goBack();
        expect(new URL(page.url()).searchParams.get('search')).toBe(query);
        expect((await cardTitles(page)).slice(0, 3)).toEqual(first);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });
  });
}
