/**
 * axe-core (WCAG 2.0/2.1 A and AA) on every page type, the admin pages (signed in) and the
 * submission form showing its errors included, in light and dark colour schemes. The scans run a few at a time (each page in its own context) to
 * keep the suite short.
 */
import { execFileSync } from 'node:child_process';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { openPage } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { PAGE_TYPES } from '../helpers/pages.ts';
import { ROOT } from '../helpers/site.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SCHEMES = ['light', 'dark'] as const;
const cases = PAGE_TYPES.flatMap((type) => SCHEMES.map((scheme) => ({ type, scheme })));
/** The admin pages, scanned signed in once their script has filled them (`ready`). */
const ADMIN_PAGES = [
  { name: 'admin deals list', path: '/admin/', ready: '[data-rows] tr' },
  { name: 'admin deal form', path: '/admin/deal/', ready: '#title' },
  { name: 'admin review queue', path: '/admin/submissions/', ready: 'main' },
  { name: 'admin searches', path: '/admin/searches/', ready: '[data-rows] tr' },
  { name: 'admin startups list', path: '/admin/startups/', ready: '[data-rows] tr' },
  { name: 'admin needs attention', path: '/admin/attention/', ready: '[data-queue="stale"] tr' },
  { name: 'admin startup form', path: '/admin/startup/', ready: '#name' },
];
const adminCases = ADMIN_PAGES.flatMap((type) => SCHEMES.map((scheme) => ({ type, scheme })));
const AXE_ACCOUNT = { email: 'e2e-axe@example.com', password: 'e2e-axe-password' };

/** Violations of one page as plain data (empty when it passes); throws if axe did not run. */
export async function scan(page: Page, label: string, scheme: string): Promise<unknown[]> {
  // `resultTypes` only trims the detail kept for passing rules (set before withTags, which it would replace).
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(TAGS)
    .analyze();
  // The scan really ran (axe was injected despite the Content-Security-Policy).
  expect(results.passes.length).toBeGreaterThan(0);
  return results.violations.map((v) => ({
    page: label,
    scheme,
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html, summary: n.failureSummary })),
  }));
}

/** One admin session for every admin scan (created once: a second add would end the first session). */
let session: Promise<{ name: string; value: string }> | undefined;
function adminSession(): Promise<{ name: string; value: string }> {
  session ??= (async () => {
    execFileSync(process.execPath, ['scripts/admin.ts', 'add', AXE_ACCOUNT.email, '--role', 'admin', '--password', AXE_ACCOUNT.password], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: e2e().site.dataDir },
      stdio: 'pipe',
    });
    const login = await fetch(e2e().url('/api/v1/auth/login'), { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: e2e().url('') }, body: JSON.stringify(AXE_ACCOUNT) });
    expect(login.status).toBe(200);
    const [name = '', value = ''] = (login.headers.getSetCookie()[0]?.split(';')[0] ?? '').split('=');
    return { name, value };
  })();
  return session;
}

export function accessibilitySuite(): void {
  describe.concurrent('accessibility (axe, WCAG 2.1 AA)', () => {
    test.each(cases)('$type.name in $scheme mode has no violations', async ({ type, scheme }) => {
      const path = await type.path();
      const { page, close } = await openPage(e2e().browser, { colorScheme: scheme });
      try {
        const response = await page.goto(e2e().url(path));
        expect(response?.status()).toBe(type.status);
        expect(await scan(page, path, scheme)).toEqual([]);
      } finally {
        await close();
      }
    });

    test.each(SCHEMES)('submit with errors (a refused post: summary, messages by the fields) in %s mode has no violations', async (scheme) => {
      const { page, close } = await openPage(e2e().browser, { colorScheme: scheme });
      try {
        await page.goto(e2e().url('/submit/'));
        await page.locator('#company_name').fill('A');
        await page.locator('#website_url').fill('example dot com');
        await page.locator('#benefit_description').fill('Too short');
        await page.locator('#redemption_link').fill('call us');
        await page.locator('#submitter_email').fill('nobody');
        await page.locator('#is_exclusive').check();
        const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Submit for review' }).click()]);
        expect(response?.status()).toBe(400);
        expect(await page.locator('[data-error-for]').count()).toBe(6);
        expect(await scan(page, '/submit/ (refused post)', scheme)).toEqual([]);
      } finally {
        await close();
      }
    });

    test.each(SCHEMES)('submit with a message about the whole form in %s mode has no violations', async (scheme) => {
      const { page, close } = await openPage(e2e().browser, { colorScheme: scheme });
      try {
        await page.goto(e2e().url('/submit/?error=too_many'));
        expect(await page.locator('[data-form-error]').count()).toBe(1);
        expect(await scan(page, '/submit/?error=too_many', scheme)).toEqual([]);
      } finally {
        await close();
      }
    });

    test.each(adminCases)('$type.name in $scheme mode has no violations (signed in)', async ({ type, scheme }) => {
      const { name, value } = await adminSession();
      const { page, close } = await openPage(e2e().browser, { colorScheme: scheme });
      try {
        await page.context().addCookies([{ name, value, url: e2e().url('/') }]);
        const response = await page.goto(e2e().url(type.path));
        expect(response?.status()).toBe(200);
        await page.locator(type.ready).first().waitFor();
        expect(await scan(page, type.path, scheme)).toEqual([]);
      } finally {
        await close();
      }
    });
  });
}
