/**
 * Phone widths (issue 15): no page scrolls sideways at 320, 360 or 390 px (every page type, every
 * deal page and every startup page of the catalog the run built), the header takes one or two
 * lines at 390 px and its menu works without JavaScript, and the filter forms are a closed
 * disclosure on phones (results on the first screen) but shown in full on a desktop.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { CatalogData } from '../../../src/catalog/catalog.ts';
import { openPage } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { PAGE_TYPES } from '../helpers/pages.ts';

const WIDTHS = [320, 360, 390] as const;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
/** Time for one width's sweep of every page of a kind (a hundred pages, several sweeps at once). */
const SWEEP_MS = 240_000;
const FILTER_PAGES = [
  { path: '/deals/', control: 'select[name=category]' },
  { path: '/programs/', control: 'select[name=category]' },
  { path: '/startups/', control: 'select[name=country]' },
];

/** The catalog this run built and serves (every deal and startup gets a page). */
function builtCatalog(): CatalogData {
  return JSON.parse(readFileSync(join(e2e().site.work, 'generated', 'catalog.json'), 'utf8')) as CatalogData;
}

/** The pages among `paths` that are wider than a `width`-pixel screen, with their width. */
async function overflowing(browser: Browser, width: number, paths: string[]): Promise<string[]> {
  const { page, close } = await openPage(browser, { viewport: { width, height: 800 } });
  try {
    const wide: string[] = [];
    for (const path of paths) {
      await page.goto(e2e().url(path), { waitUntil: 'load' });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scrollWidth > width) wide.push(`${path} is ${scrollWidth} px wide`);
    }
    return wide;
  } finally {
    await close();
  }
}

/** Rows the visible parts of the header take: items whose tops are within a few pixels share a row. */
function headerRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll('header.site .brand, header.site summary, header.site nav a')].filter((e) => e.checkVisibility());
    const tops = items.map((e) => Math.round(e.getBoundingClientRect().top)).sort((a, b) => a - b);
    return tops.filter((top, i) => i === 0 || top - (tops[i - 1] ?? top) > 8).length;
  });
}

export function phoneLayoutSuite(): void {
  describe.concurrent('no horizontal scroll on phones', () => {
    test.each(WIDTHS)(
      'every page type at %i px',
      async (width) => {
        const paths = await Promise.all(PAGE_TYPES.map((type) => type.path()));
        expect(await overflowing(e2e().browser, width, paths)).toEqual([]);
      },
      SWEEP_MS,
    );

    test.each(WIDTHS)(
      'every deal page at %i px',
      async (width) => {
        const paths = builtCatalog().deals.map((d) => `/deals/${d.slug}/`);
        expect(paths.length).toBeGreaterThan(0);
        expect(await overflowing(e2e().browser, width, paths)).toEqual([]);
      },
      SWEEP_MS,
    );

    test.each(WIDTHS)(
      'every startup page and every category page at %i px',
      async (width) => {
        const catalog = builtCatalog();
        const paths = [...catalog.startups.map((s) => `/startups/${s.slug}/`), ...catalog.categories.deals.map((c) => `/categories/${c.slug}/`)];
        expect(await overflowing(e2e().browser, width, paths)).toEqual([]);
      },
      SWEEP_MS,
    );
  });

  describe('header on phones', () => {
    test('at 390 px the header takes one or two lines; its menu opens without JavaScript and its links work', async () => {
      const { page, close } = await openPage(e2e().browser, { viewport: PHONE, javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/deals/'));
        expect(await headerRows(page)).toBeLessThanOrEqual(2);
        const header = await page.locator('header.site').boundingBox();
        expect(header?.height).toBeLessThanOrEqual(120);
        const programs = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Programs' });
        expect(await programs.isVisible()).toBe(false);
        await page.locator('header.site summary').click();
        expect(await programs.isVisible()).toBe(true);
        await Promise.all([page.waitForURL('**/programs/'), programs.click()]);
        expect((await page.locator('main h1').textContent())?.trim()).toBe('Programs');
      } finally {
        await close();
      }
    });

    test('at 1366 px every navigation link is shown, on one line, with no menu button', async () => {
      const { page, close } = await openPage(e2e().browser, { viewport: DESKTOP });
      try {
        await page.goto(e2e().url('/'));
        expect(await page.locator('header.site summary').isVisible()).toBe(false);
        const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
        expect(await links.count()).toBeGreaterThan(3);
        for (const link of await links.all()) expect(await link.isVisible()).toBe(true);
        expect(await headerRows(page)).toBe(1);
      } finally {
        await close();
      }
    });
  });

  describe('filters on phones', () => {
    test.each(FILTER_PAGES)('$path: filters collapsed at 390 px (search box and first result on the first screen), open on tap without JavaScript', async ({ path, control }) => {
      const { page, close } = await openPage(e2e().browser, { viewport: PHONE, javaScriptEnabled: false });
      try {
        await page.goto(e2e().url(path));
        expect(await page.getByRole('searchbox', { name: 'Search' }).isVisible()).toBe(true);
        expect(await page.locator(control).isVisible()).toBe(false);
        const firstCard = await page.locator('main ul.grid > li.card').first().boundingBox();
        expect(firstCard?.y).toBeLessThan(PHONE.height);
        await page.locator('form.filters summary').click();
        expect(await page.locator(control).isVisible()).toBe(true);
      } finally {
        await close();
      }
    });

    test.each(FILTER_PAGES)('$path: filters shown in full at 1366 px', async ({ path, control }) => {
      const { page, close } = await openPage(e2e().browser, { viewport: DESKTOP });
      try {
        await page.goto(e2e().url(path));
        expect(await page.locator(control).isVisible()).toBe(true);
        expect(await page.locator('form.filters summary').isVisible()).toBe(false);
        // Usable as shown: focus reaches the control.
        await page.locator(control).focus();
        expect(await page.evaluate((selector) => document.activeElement === document.querySelector(selector), control)).toBe(true);
      } finally {
        await close();
      }
    });
  });
}
