/**
 * Browser helpers for the e2e suite: the Debian Chromium (never a downloaded browser), pages that
 * record script errors, colour arithmetic, and reading the JSON API the pages are compared with.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught script errors on the page (a test asserts there are none). */
  pageErrors: string[];
  close: () => Promise<void>;
}

/** A fresh context (own cookies, own JavaScript setting) with one page. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page, pageErrors, close: () => context.close() };
}

/**
 * WCAG relative luminance (0 black … 1 white) of a computed CSS colour such as `rgb(13, 17, 23)`.
 * @example relativeLuminance('rgb(255, 255, 255)') // 1
 */
export function relativeLuminance(cssColor: string): number {
  const match = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+))?\s*\)$/.exec(cssColor.trim());
  if (!match) throw new Error(`not an rgb() colour: ${cssColor}`);
  if (match[4] !== undefined && Number(match[4]) === 0) throw new Error(`transparent colour: ${cssColor}`);
  const channel = (text: string | undefined) => {
    const c = Number(text) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(match[1]) + 0.7152 * channel(match[2]) + 0.0722 * channel(match[3]);
}

/** GET a JSON document; fails the test on a non-200 answer. */
export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The fields of a Deal the tests read (SPEC "Deal"). */
export interface ApiDeal {
  id: string;
  slug: string;
  title: string;
  provider: string;
  category: string;
  status: string;
  applicationUrl: string;
  value?: string;
  eligibility?: string[];
  requirements?: string[];
  featured?: boolean;
  recommended?: boolean;
}

export interface DealList {
  success: true;
  deals: ApiDeal[];
  count: number;
  stats: { total: number };
}

export interface ApiStartup {
  slug: string;
  name: string;
  category: string;
  country?: string;
  revenue?: number;
}

export interface StartupList {
  success: true;
  startups: ApiStartup[];
  total: number;
}

/** Visible titles of the deal cards in a page's results list. */
export function cardTitles(page: Page, list = '[data-results]'): Promise<string[]> {
  return page
    .locator(`${list} > li.card h3`)
    .allTextContents()
    .then((texts) => texts.map((t) => t.trim()));
}

/** The deal cards and the result summary of a list page, as the visitor sees them. */
export async function shownResults(page: Page): Promise<{ titles: string[]; summary: string }> {
  return { titles: await cardTitles(page), summary: ((await page.locator('[data-summary]').textContent()) ?? '').trim() };
}

/** The two widths pages are checked at. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };

/** Screenshots of `page` at both widths and in both schemes (with E2E_SHOTS set). */
export async function shoot(page: Page, name: string, locator?: string): Promise<void> {
  const SHOTS = process.env.E2E_SHOTS;
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const path = join(SHOTS, `${name}-${size.width}-${scheme}.png`);
      if (locator) await page.locator(locator).screenshot({ path });
      else await page.screenshot({ path, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}
