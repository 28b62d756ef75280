/**
 * Admins in the browser (issue 3 "Done when"): sign in on the login page, create a deal with
 * the admin form, edit it, delete it from the list (selected, then confirmed), each change visible in
 * the API at once; and sign-in through a real OpenID Connect provider (`oidc-provider` on
 * 127.0.0.1) by clicking the provider button, on a second server over the same build.
 */
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { OIDC_CALLBACK_PATH } from '../../../functions/auth/oidc-login.ts';
import { startOidcProvider } from '../../helpers/oidc-provider.ts';
import { expectSecurityHeaders } from '../../helpers/security-headers.ts';
import { openPage, getJson, type ApiDeal } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { ROOT } from '../helpers/site.ts';

const ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password' };

export function addAccount(email: string, ...flags: string[]): void {
  execFileSync(process.execPath, ['scripts/admin.ts', 'add', email, '--role', 'admin', ...flags], { cwd: ROOT, env: { ...process.env, DATA_DIR: e2e().site.dataDir }, stdio: 'pipe' });
}

const dealBySlug = (slug: string) => fetch(e2e().url(`/api/v1/deals?slug=${slug}`));

/** Sign in as ADMIN over the API; the `Cookie` header value. */
export async function signInCookie(account: { email: string; password: string } = ADMIN): Promise<string> {
  const response = await fetch(e2e().url('/api/v1/auth/login'), { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: e2e().url('') }, body: JSON.stringify(account) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (response.headers.getSetCookie()[0] as string).split(';')[0] as string;
}

/** Sign `account` in on the login page; resolves on the deal list it leads to. */
export async function signInPage(page: Page, account: { email: string; password: string } = ADMIN): Promise<void> {
  await page.goto(e2e().url('/login'));
  await page.locator('#email').fill(account.email);
  await page.locator('#password').fill(account.password);
  await page.locator('form.login button[type=submit]').click();
  await page.waitForURL(/\/admin\/$/);
}

export function adminSuite(): void {
  describe('admin pages', () => {
    test('sign in, create, edit and delete a deal; the API follows each step', async () => {
      addAccount(ADMIN.email, '--password', ADMIN.password);
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/login'));
        expect(await page.locator('.sso').count()).toBe(0); // no provider configured on this server
        await signInPage(page);
        // The first page of every deal, and how many there are.
        await expect.poll(() => page.locator('[data-rows] tr').count()).toBe(25);
        expect(Number(/^(\d+) deals/.exec((await page.locator('[data-status]').textContent()) ?? '')?.[1])).toBeGreaterThan(50);

        await page.goto(e2e().url('/admin/deal/'));
        await page.locator('#title').fill('E2E Rocket credits');
        await page.locator('#provider').fill('E2E Rocket');
        await page.locator('#category').selectOption('cloud-credits');
        await page.locator('#applicationUrl').fill('https://rocket.example/apply');
        // A new deal's main button publishes it ("Save as draft" would keep it off the site).
        await page.getByRole('button', { name: 'Publish', exact: true }).click();
        await expect.poll(() => page.locator('[data-status]').textContent()).toContain('Saved "E2E Rocket credits". It is live now.');
        const created = await getJson<{ deal: ApiDeal }>(e2e().url('/api/v1/deals?slug=e2e-rocket-credits'));
        expect(created.deal.provider).toBe('E2E Rocket');
        // The new deal has a page at once, rendered live (the site was built before it existed).
        const dealPage = await page.context().newPage();
        await dealPage.goto(e2e().url('/deals/e2e-rocket-credits/'));
        expect(await dealPage.locator('h1').textContent()).toBe('E2E Rocket credits');
        expect(await dealPage.locator('link[rel=canonical]').getAttribute('href')).toMatch(/\/deals\/e2e-rocket-credits\/$/);
        const twin = await fetch(e2e().url('/deals/e2e-rocket-credits/'), { headers: { Accept: 'text/markdown' } });
        expect(twin.headers.get('content-type')).toContain('text/markdown');
        expect(await twin.text()).toContain('# [E2E Rocket credits]');

        // A second save on the same page edits the deal it just created.
        await page.locator('#title').fill('E2E Rocket credits, doubled');
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect.poll(() => page.locator('[data-status]').textContent()).toContain('doubled');
        const edited = await getJson<{ deal: ApiDeal }>(e2e().url('/api/v1/deals?slug=e2e-rocket-credits'));
        expect(edited.deal.title).toBe('E2E Rocket credits, doubled');
        expect(edited.deal.id).toBe(created.deal.id);
        await dealPage.reload();
        expect(await dealPage.locator('h1').textContent()).toBe('E2E Rocket credits, doubled');

        await page.goto(e2e().url('/admin/'));
        await page.locator('#q').fill('doubled');
        await page.locator('#q').press('Enter');
        const row = page.locator('[data-rows] tr', { hasText: 'E2E Rocket credits, doubled' });
        await expect.poll(() => row.count()).toBe(1);
        // Deleted from the list: selected, then one confirmation.
        await row.locator('[data-select]').check();
        await page.getByRole('button', { name: 'Delete selected…' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Delete 1 deal' }).click();
        await expect.poll(() => page.locator('[data-status]').textContent(), { timeout: 10_000 }).toBe('Deleted 1 deal. Undo: restore it');
        expect((await dealBySlug('e2e-rocket-credits')).status).toBe(404);
        expect((await dealPage.reload())?.status()).toBe(404);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test('a built deal page follows an edit and a delete made after the build', async () => {
      const cookie = await signInCookie();
      const { deals } = await getJson<{ deals: ApiDeal[] }>(e2e().url('/api/v1/deals?limit=200&status=all&scope=all'));
      const target = deals.at(-1) as ApiDeal;
      const pageUrl = e2e().url(`/deals/${target.slug}/`);
      expect(await (await fetch(pageUrl)).text()).toContain(target.title);
      const headers = { 'Content-Type': 'application/json', Cookie: cookie, Origin: e2e().url('') };
      const edit = await fetch(e2e().url('/api/v1/deals'), { method: 'PUT', headers, body: JSON.stringify({ slug: target.slug, title: `${target.title} (updated)` }) });
      expect(edit.status).toBe(200);
      expect(await (await fetch(pageUrl)).text()).toContain(`${target.title} (updated)`);
      expect((await fetch(e2e().url(`/api/v1/deals?slug=${target.slug}`), { method: 'DELETE', headers })).status).toBe(200);
      expect((await fetch(pageUrl)).status).toBe(404);
      expect((await fetch(`${pageUrl}index.md`)).status).toBe(404);
    });

    test('list, category and home pages follow a write made after the build, in the browser and as Markdown', async () => {
      const cookie = await signInCookie();
      const headers = { 'Content-Type': 'application/json', Cookie: cookie, Origin: e2e().url('') };
      const deal = { title: 'E2E Listed Lantern credits', provider: 'Lantern', category: 'cloud-credits', applicationUrl: 'https://lantern.example/apply', featured: true };
      const before = await (await fetch(e2e().url('/deals/'))).text();
      expect(before).not.toContain(deal.title);
      expect((await fetch(e2e().url('/api/v1/deals'), { method: 'POST', headers, body: JSON.stringify(deal) })).status).toBe(200);
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        // Featured: among the first cards of /deals/, in the home page's sponsored row, and on its category page.
        for (const path of ['/deals/', '/', '/categories/cloud-credits/']) {
          const response = await page.goto(e2e().url(path));
          expect(response?.status(), path).toBe(200);
          await expect.poll(() => page.locator('.card h3', { hasText: deal.title }).count(), { message: path }).toBe(1);
        }
        await page.goto(e2e().url('/deals/'));
        // Rendered live, the page keeps working: instant search still answers from the API.
        await page.locator('input[name=search]').first().fill('lantern');
        await expect.poll(() => page.locator('[data-results] .card').count()).toBe(1);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
      for (const [url, accept] of [
        [e2e().url('/deals/index.md'), '*/*'],
        [e2e().url('/categories/cloud-credits/'), 'text/markdown'],
      ] as const) {
        const twin = await fetch(url, { headers: { Accept: accept } });
        expect(twin.headers.get('content-type'), url).toContain('text/markdown');
        expect(await twin.text(), url).toContain(deal.title);
      }
      // Rendered once per catalog version, then served like a built file: ETag, 304, compression.
      const again = await fetch(e2e().url('/deals/'), { headers: { 'Accept-Encoding': 'gzip' } });
      expect(again.headers.get('content-encoding')).toBe('gzip');
      expect(again.headers.get('content-security-policy')).toContain("script-src 'self'");
      const etag = again.headers.get('etag') ?? '';
      expect(etag).toMatch(/^W\/"live-.+-gzip"$/);
      expect(await again.text()).toContain(deal.title);
      expect((await fetch(e2e().url('/deals/'), { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } })).status).toBe(304);
      expect((await fetch(e2e().url('/api/v1/deals?slug=e2e-listed-lantern-credits'), { method: 'DELETE', headers })).status).toBe(200);
      expect(await (await fetch(e2e().url('/deals/'))).text()).not.toContain(deal.title);
      expect(await (await fetch(e2e().url('/categories/cloud-credits/'))).text()).not.toContain(deal.title);
    });

    test('security headers on every kind of response: built and live pages, twins, files, documents, API answers, errors', async () => {
      const cookie = await signInCookie();
      const headers = { 'Content-Type': 'application/json', Cookie: cookie, Origin: e2e().url('') };
      const deal = { title: 'E2E Header Harbor credits', provider: 'Harbor', category: 'cloud-credits', applicationUrl: 'https://harbor.example/apply' };
      expect((await fetch(e2e().url('/api/v1/deals'), { method: 'POST', headers, body: JSON.stringify(deal) })).status).toBe(200);
      try {
        const css = /href="(\/_astro\/[^"]+\.css)"/.exec(await (await fetch(e2e().url('/about/'))).text())?.[1];
        expect(css, 'a built stylesheet').toBeDefined();
        const cases: [string, string, Record<string, string>, number][] = [
          ['built page', '/about/', {}, 200],
          ['built twin', '/about/', { Accept: 'text/markdown' }, 200],
          ['live page (changed since the build)', '/deals/e2e-header-harbor-credits/', {}, 200],
          ['live twin', '/deals/e2e-header-harbor-credits/', { Accept: 'text/markdown' }, 200],
          ['live list page', '/deals/', {}, 200],
          ['static file', css as string, {}, 200],
          ['document', '/llms.txt', {}, 200],
          ['API answer', '/api/v1/deals?limit=1', {}, 200],
          ['API error', '/api/v1/deals?slug=no-such-deal', {}, 404],
          ['404 page', '/no-such-page/', {}, 404],
        ];
        for (const [label, path, requestHeaders, status] of cases) {
          const response = await fetch(e2e().url(path), { headers: requestHeaders });
          await response.arrayBuffer();
          expect(response.status, label).toBe(status);
          expectSecurityHeaders((name) => response.headers.get(name), label);
        }
      } finally {
        await fetch(e2e().url('/api/v1/deals?slug=e2e-header-harbor-credits'), { method: 'DELETE', headers });
      }
    });

    test('sign in through an OpenID Connect provider with the login page button', async () => {
      const provider = await startOidcProvider({ grace: { email: 'grace.sso@example.com', emailVerified: true } });
      const second = await e2e().site.serveWith({ OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret, OIDC_NAME: 'Test Provider' });
      provider.allowRedirect(`${second.url}${OIDC_CALLBACK_PATH}`);
      addAccount('grace.sso@example.com', '--sso');
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(`${second.url}/login`);
        await page.getByRole('link', { name: 'Sign in with Test Provider' }).click();
        // The provider's own (development) login and consent pages.
        await page.waitForURL((url) => url.origin === provider.issuer);
        await page.locator('input[name=login]').fill('grace');
        await page.locator('input[name=password]').fill('whatever');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await page.locator('button[type=submit]', { hasText: 'Continue' }).click();
        await page.waitForURL(`${second.url}/admin/`);
        const session = await page.evaluate(async () => (await fetch('/api/v1/auth/session')).json());
        expect(session).toMatchObject({ user: { email: 'grace.sso@example.com', role: 'admin' } });
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
        await second.stop();
        await provider.stop();
      }
    });
  });
}
