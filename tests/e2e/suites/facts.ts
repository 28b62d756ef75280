/**
 * The facts founders compare (issue 15) in the browser: a sort and a program filter chosen on
 * /programs/ and /deals/, with and without JavaScript, are in the address, and a reload and Back
 * from a deal show the same list, the one GET /api/v1/deals answers; program facts in words on
 * cards and deal pages; startups for sale by default, with a summary and a call to action.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { cardTitles, getJson, openPage, type ApiDeal, type DealList } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';

interface FactsDeal extends ApiDeal {
  valueUsd?: number;
  equityPercent?: number;
  stages?: string[];
}

interface FactsStartup {
  slug: string;
  name: string;
  summary?: string;
  forSale: boolean;
}

async function apiList(query: Record<string, string>): Promise<{ titles: string[]; deals: FactsDeal[] }> {
  const list = await getJson<DealList & { deals: FactsDeal[] }>(e2e().url(`/api/v1/deals?${new URLSearchParams({ ...query, limit: '48' })}`));
  return { titles: list.deals.map((d) => d.title), deals: list.deals };
}

/** The chosen filters, as the address carries them (empty fields left out). */
function addressFilters(page: Page): Record<string, string> {
  return Object.fromEntries([...new URL(page.url()).searchParams].filter(([, v]) => v !== ''));
}

/** Reload, then open the first deal and come Back: each time the same cards and the same address. */
async function expectReloadAndBack(page: Page, titles: string[]): Promise<void> {
  const address = page.url();
  await page.reload();
  expect(await cardTitles(page)).toEqual(titles);
  expect(page.url()).toBe(address);
  await Promise.all([page.waitForURL('**/deals/*/'), page.locator('[data-results] > li.card h3 a').first().click()]);
  await page.goBack();
  expect(page.url()).toBe(address);
  await expect.poll(() => cardTitles(page), { timeout: 10_000 }).toEqual(titles);
}

export function factsSuite(): void {
  describe('facts founders compare', () => {
    test('without JavaScript: sort by value + a region on /programs/ land on /deals/search/ with that list; reload and Back keep it', async () => {
      const unsorted = await apiList({ scope: 'programs', region: 'europe' });
      const expected = await apiList({ scope: 'programs', region: 'europe', sort: 'value' });
      expect(expected.titles.length).toBeGreaterThan(1);
      // The sort changes the list, and orders it by estimated value, unknown last.
      expect(expected.titles).not.toEqual(unsorted.titles);
      const values = expected.deals.map((d) => d.valueUsd ?? -1);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/programs/'));
        await page.locator('select[name=sort]').selectOption('value');
        await page.locator('select[name=region]').selectOption('europe');
        await Promise.all([page.waitForURL('**/deals/search/?**'), page.getByRole('button', { name: 'Filter' }).click()]);
        expect(new URL(page.url()).pathname).toBe('/deals/search/');
        expect(addressFilters(page)).toEqual({ sort: 'value', region: 'europe', scope: 'programs' });
        expect(await cardTitles(page)).toEqual(expected.titles);
        // The answer keeps the choices, so they can be refined.
        expect(await page.locator('select[name=sort]').inputValue()).toBe('value');
        expect(await page.locator('select[name=region]').inputValue()).toBe('europe');
        // Program facts in words on the cards.
        expect(await page.locator('[data-results] > li.card .program-facts').first().textContent()).toMatch(/Worldwide|Europe|France|Germany|United Kingdom|European Union/);
        await expectReloadAndBack(page, expected.titles);
      } finally {
        await close();
      }
    });

    test('with JavaScript: sort by value + a stage on /deals/ update the list in place and the address; reload and Back keep it', async () => {
      const programs = (await apiList({ scope: 'programs' })).deals;
      // The commonest stage among the programs, so the filter keeps several.
      const tally = new Map<string, number>();
      for (const stage of programs.flatMap((d) => d.stages ?? [])) tally.set(stage, (tally.get(stage) ?? 0) + 1);
      const stage = [...tally].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
      if (!stage) throw new Error('no program states its stages');
      const expected = await apiList({ scope: 'all', stage, sort: 'value' });
      expect(expected.titles.length).toBeGreaterThan(1);
      const values = expected.deals.map((d) => d.valueUsd ?? -1);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/deals/'));
        await page.evaluate(() => Object.assign(window, { e2eMarker: 'same document' }));
        await page.locator('select[name=sort]').selectOption('value');
        await page.locator('select[name=stage]').selectOption(stage);
        await expect.poll(() => cardTitles(page), { timeout: 10_000 }).toEqual(expected.titles);
        // In place (no page load), and the address names the list.
        expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('same document');
        await expect.poll(() => addressFilters(page), { timeout: 10_000 }).toEqual({ sort: 'value', scope: 'all', stage });
        expect(new URL(page.url()).pathname).toBe('/deals/search/');
        await expectReloadAndBack(page, expected.titles);
        expect(await page.locator('select[name=sort]').inputValue()).toBe('value');
        expect(await page.locator('select[name=stage]').inputValue()).toBe(stage);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test('a program page states equity, stage and regions in words', async () => {
      const program = (await apiList({ scope: 'programs', sort: 'value' })).deals.find((d) => d.equityPercent !== undefined && d.equityPercent > 0 && d.stages);
      if (!program) throw new Error('no program states a share of equity and its stages');
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url(`/deals/${program.slug}/`));
        const facts = Object.fromEntries(await page.locator('dl.facts dt').evaluateAll((terms) => terms.map((dt) => [dt.textContent?.trim() ?? '', dt.nextElementSibling?.textContent?.trim() ?? ''])));
        expect(facts.Equity).toBe(`${program.equityPercent}% equity`);
        expect(facts.Stage).toMatch(/^[A-Z]/);
        expect(facts.Stage).not.toMatch(/-/);
      } finally {
        await close();
      }
    });

    test('/startups/ lists businesses for sale, each with its one-line summary; the others are one link away', async () => {
      const all = (await getJson<{ startups: FactsStartup[] }>(e2e().url('/api/v1/startups'))).startups;
      const forSale = all.filter((s) => s.forSale);
      expect(forSale.length).toBeLessThan(all.length);
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/startups/'));
        const names = (await page.locator('main ul.grid > li.card h3').allTextContents()).map((t) => t.trim());
        expect(names).toEqual(forSale.slice(0, 48).map((s) => s.name));
        expect(await page.locator('main ul.grid > li.card .summary').first().textContent()).toBe(forSale[0]?.summary);
        await Promise.all([page.waitForURL('**/startups/search/?**'), page.getByRole('link', { name: /sold or off the market/ }).click()]);
        const sold = (await page.locator('main ul.grid > li.card h3').allTextContents()).map((t) => t.trim());
        expect(sold.sort()).toEqual(
          all
            .filter((s) => !s.forSale)
            .map((s) => s.name)
            .sort(),
        );
      } finally {
        await close();
      }
    });

    test('a listing page has a call to action: a listing for sale asks the editors, a sold one points to those for sale', async () => {
      const all = (await getJson<{ startups: FactsStartup[] }>(e2e().url('/api/v1/startups'))).startups;
      const forSale = all.find((s) => s.forSale);
      const sold = all.find((s) => !s.forSale);
      if (!forSale || !sold) throw new Error('the catalog needs a listing for sale and one sold');
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url(`/startups/${forSale.slug}/`));
        const action = page.locator('.offer .actions a.button');
        expect(await action.getAttribute('href')).toMatch(/^mailto:|^https?:\/\//);
        expect(await page.locator('p.lead').textContent()).toBe(forSale.summary);
        await page.goto(e2e().url(`/startups/${sold.slug}/`));
        expect(await page.locator('.offer .actions').textContent()).toContain('no longer for sale');
        expect(await page.locator('.offer .actions a').getAttribute('href')).toBe('/startups/');
      } finally {
        await close();
      }
    });
  });
}
