/**
 * The search-gap counter as people meet it: searches typed in the site's box on /deals/ (only
 * the query the box rests on is counted, never the prefixes sent while typing) and the plain
 * form without JavaScript are counted when they find nothing; admins read them from
 * GET /api/v1/admin/search-gaps and on /admin/searches/, which needs a session like the other
 * admin pages.
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { openPage } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { E2E_DIR, ROOT } from '../helpers/site.ts';

/** Own account: adding an account again ends its sessions, so the other suites' admins are left alone. */
const ACCOUNT = { email: 'e2e-search-gaps@example.com', password: 'e2e-search-gaps-password' };
/**
 * The box counts its query once it has rested 1.5 s (SETTLED_MS in InstantSearch.astro); nothing
 * on the page shows that moment, so the test waits it out, with room for the request to land.
 */
const SETTLE_MS = 2_500;
/** Kept after the run (`.e2e/` is ignored by git) for a person to look at. */
const SCREENSHOT = join(E2E_DIR, 'screenshots', 'admin-searches.png');

/** A word no deal contains, fresh per run so counts from an earlier run cannot mix in. */
const nonsense = () => `zqgap${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
/** Typed with capitals and punctuation, listed normalised (lower case, punctuation dropped). */
const FILLED = { typed: '', listed: nonsense() };
FILLED.typed = `Zq${FILLED.listed.slice(2).toUpperCase()}!`;
/** Typed a letter at a time, slowly enough that each letter sends its own request. */
const TYPED = nonsense();
/** Sent through the form without JavaScript. */
const SUBMITTED = nonsense();

interface GapRow {
  query: string;
  zero: number;
  low: number;
  lastSeen: string;
}
interface GapReport {
  success: true;
  searches: number;
  queries: GapRow[];
}

/** One session for the suite (created once: a second add would end the first session). */
let session: Promise<{ name: string; value: string }> | undefined;
function adminSession(): Promise<{ name: string; value: string }> {
  session ??= (async () => {
    execFileSync(process.execPath, ['scripts/admin.ts', 'add', ACCOUNT.email, '--role', 'admin', '--password', ACCOUNT.password], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: e2e().site.dataDir },
      stdio: 'pipe',
    });
    const login = await fetch(e2e().url('/api/v1/auth/login'), { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: e2e().url('') }, body: JSON.stringify(ACCOUNT) });
    expect(login.status).toBe(200);
    const [name = '', value = ''] = (login.headers.getSetCookie()[0]?.split(';')[0] ?? '').split('=');
    return { name, value };
  })();
  return session;
}

/** What the admin endpoint reports for the last 7 days (every query, not only the first 50). */
async function gaps(): Promise<GapReport> {
  const { name, value } = await adminSession();
  const response = await fetch(e2e().url('/api/v1/admin/search-gaps?days=7&limit=500'), { headers: { Accept: 'application/json', Cookie: `${name}=${value}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as GapReport;
}

const rowFor = (report: GapReport, query: string) => report.queries.find((r) => r.query === query);

/** The deal-search requests a page sends: method, search text and the typing mark. */
function recordSearches(page: Page): { method: string; search: string | null; intent: string | undefined }[] {
  const sent: { method: string; search: string | null; intent: string | undefined }[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/deals') sent.push({ method: request.method(), search: url.searchParams.get('search'), intent: request.headers()['search-intent'] });
  });
  return sent;
}

export function searchGapsSuite(): void {
  describe('search gaps', () => {
    test('a query filled into the box on /deals/ is counted once, normalised, after the box rests', async () => {
      const before = await gaps();
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/deals/'));
        const sent = recordSearches(page);
        await page.getByRole('searchbox', { name: 'Search' }).fill(FILLED.typed);
        await page.waitForTimeout(SETTLE_MS);
        // Shown at once from a request marked as typing; counted by one unmarked HEAD afterwards.
        expect(sent).toEqual([
          { method: 'GET', search: FILLED.typed, intent: 'incremental' },
          { method: 'HEAD', search: FILLED.typed, intent: undefined },
        ]);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
      await expect.poll(async () => rowFor(await gaps(), FILLED.listed)).toMatchObject({ query: FILLED.listed, zero: 1, low: 0 });
      expect((await gaps()).searches - before.searches).toBe(1);
    });

    test('a query typed a letter at a time is counted once, and none of its prefixes is', async () => {
      const before = await gaps();
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/deals/'));
        const sent = recordSearches(page);
        await page.getByRole('searchbox', { name: 'Search' }).click();
        // Slower than the box's 120 ms pause before it asks, so several prefixes are asked for.
        await page.keyboard.type(TYPED, { delay: 250 });
        await page.waitForTimeout(SETTLE_MS);
        const typing = sent.filter((s) => s.intent === 'incremental');
        expect(typing.every((s) => s.method === 'GET' && TYPED.startsWith(s.search ?? '-'))).toBe(true);
        expect(new Set(typing.map((s) => s.search)).size).toBeGreaterThanOrEqual(3);
        expect(sent.filter((s) => s.intent !== 'incremental')).toEqual([{ method: 'HEAD', search: TYPED, intent: undefined }]);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
      await expect.poll(async () => rowFor(await gaps(), TYPED)).toMatchObject({ query: TYPED, zero: 1, low: 0 });
      const after = await gaps();
      expect(after.queries.filter((r) => r.query !== TYPED && TYPED.startsWith(r.query))).toEqual([]);
      // One search, not one per letter (short prefixes find deals and would not be listed, but would be counted).
      expect(after.searches - before.searches).toBe(1);
    });

    test('the search form submitted without JavaScript counts its query', async () => {
      const before = await gaps();
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/deals/'));
        await page.getByRole('searchbox', { name: 'Search' }).fill(SUBMITTED);
        await Promise.all([page.waitForURL('**/deals/search/?**'), page.getByRole('button', { name: 'Filter' }).click()]);
        expect(new URL(page.url()).searchParams.get('search')).toBe(SUBMITTED);
        expect(await page.locator('[data-summary]').textContent()).toContain(`No deals matched “${SUBMITTED}”`);
      } finally {
        await close();
      }
      await expect.poll(async () => rowFor(await gaps(), SUBMITTED)).toMatchObject({ query: SUBMITTED, zero: 1, low: 0 });
      expect((await gaps()).searches - before.searches).toBe(1);
    });

    test('/admin/searches/ lists the counted queries in its table (signed in, desktop width)', async () => {
      const { name, value } = await adminSession();
      const { page, pageErrors, close } = await openPage(e2e().browser, { viewport: { width: 1280, height: 800 } });
      try {
        await page.context().addCookies([{ name, value, url: e2e().url('/') }]);
        expect((await page.goto(e2e().url('/admin/searches/')))?.status()).toBe(200);
        await page.locator('[data-rows] tr', { hasText: SUBMITTED }).waitFor();
        // Saved before the checks, so a failing run still leaves the page to look at.
        await mkdir(join(E2E_DIR, 'screenshots'), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
        expect(await page.locator('h1').textContent()).toBe('Searches without good results');
        expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Searches' }).getAttribute('href')).toBe('/admin/searches/');
        const table = await page.locator('[data-rows] tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent?.trim() ?? '')));
        for (const query of [FILLED.listed, TYPED, SUBMITTED]) {
          expect(
            table.find((cells) => cells[0] === query),
            query,
          ).toEqual([query, '1', '0', expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)]);
        }
        // Each query links to what the site shows for it now.
        expect(await page.getByRole('link', { name: SUBMITTED }).getAttribute('href')).toBe(`/deals/search/?search=${SUBMITTED}&scope=all`);
        expect(await page.locator('[data-totals]').textContent()).toMatch(/^\d+ searches from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: \d+ found nothing/);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test.each(['/admin/', '/admin/searches/'])('%s without a session sends the visitor to sign in, and the counts stay private', async (path) => {
      const { page, close } = await openPage(e2e().browser);
      try {
        // The page itself is static; its script's first API call answers 401 and leads to /login.
        await page.goto(e2e().url(path));
        await page.waitForURL('**/login?next=**');
        expect(new URL(page.url()).searchParams.get('next')).toBe(path);
        expect(await page.locator('form.login').count()).toBe(1);
      } finally {
        await close();
      }
      expect((await fetch(e2e().url('/api/v1/admin/search-gaps'))).status).toBe(401);
    });
  });
}
