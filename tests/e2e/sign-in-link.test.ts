/**
 * Sign-in by a mailed link in a real browser against the real server (issue 18, item 2), the
 * mail read from DATA_DIR/outbox (no SMTP configured: the fresh-clone default): Save on a deal
 * page sends an anonymous visitor to /login, the second form mails a link, the link's page has
 * one button, and the browser lands back on the deal page, signed in, the header showing Saved
 * and Sign out; the link does not work twice. With JavaScript off, the same walk from
 * /account/saved/ and its own Sign out button. Sign-up through the OpenID Connect provider from
 * /signup. /login and the link's page checked by axe at both widths, nothing wider than a
 * phone; screenshots with E2E_SHOTS. Its own site and browser.
 */
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { OIDC_CALLBACK_PATH } from '../../functions/auth/oidc-login.ts';
import { startOidcProvider } from '../helpers/oidc-provider.ts';
import { DESKTOP, getJson, openPage, PHONE, shoot, type DealList } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { mailedLink } from './helpers/mail.ts';
import { ROOT } from './helpers/site.ts';
import { scan } from './suites/accessibility.ts';

beforeAll(() => setUp());
afterAll(tearDown);

/** A confirmed member with a password, made with the project's CLI in the site's database. */
function addMember(email: string): void {
  execFileSync(process.execPath, ['scripts/admin.ts', 'add', email, '--role', 'member', '--password', 'a member password'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: e2e().site.dataDir },
    stdio: 'pipe',
  });
}

/** Ask for a link with the sign-in page's second form; resolves once the page says to check the mail. */
async function askForLink(page: Page, email: string): Promise<void> {
  await page.getByLabel('Send the link to').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('link-sent'));
  expect(await page.locator('[data-login-note]').textContent()).toMatch(/^Check your e-mail\./);
}

const session = async (page: Page) => (await page.context().request.get(e2e().url('/api/v1/auth/session'))).status();

test('Save on a deal page → sign in with a mailed link → back on the deal page, signed in; the link works once; Sign out in the header', async () => {
  const email = 'e2e-linker@example.com';
  addMember(email);
  const slug = (await getJson<DealList>(e2e().url('/api/v1/deals?limit=1'))).deals[0]?.slug as string;
  const { page, pageErrors, close } = await openPage(e2e().browser, { viewport: DESKTOP });
  try {
    await page.goto(e2e().url(`/deals/${slug}/`));
    await page.locator('.offer form[data-save] button').click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === `/deals/${slug}/`);
    await shoot(page, 'login');
    await askForLink(page, email);
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/deals/${slug}/`);
    await shoot(page, 'login-link-sent');

    const link = await mailedLink(email, 'signin');
    expect(new URL(link).pathname).toBe('/sign-in-link');
    await page.goto(link);
    // Opening the link signed nobody in: the button does.
    expect(await session(page)).toBe(401);
    expect(await page.locator('h1').textContent()).toBe('Sign in');
    await shoot(page, 'sign-in-link');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === `/deals/${slug}/`);
    expect(await session(page)).toBe(200);
    // The header shows where the member is, and the way out.
    await expect.poll(() => page.locator('[data-saved-link]').isVisible()).toBe(true);
    expect(await page.locator('[data-sign-out]').isVisible()).toBe(true);
    await shoot(page, 'header-member', 'header.site');

    // The same link again: spent.
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'signin_link_expired');
    expect(await page.locator('[data-login-message]').textContent()).toMatch(/^That sign-in link has expired/);
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/deals/${slug}/`);

    // On a phone the header has no room for it: Sign out is in the menu.
    await page.goto(e2e().url(`/deals/${slug}/`));
    await page.setViewportSize(PHONE);
    expect(await page.locator('[data-sign-out]').isVisible()).toBe(false);
    await page.getByText('Menu', { exact: true }).click();
    expect(await page.locator('[data-sign-out-menu] button').isVisible()).toBe(true);
    await shoot(page, 'menu-member');
    await page.setViewportSize(DESKTOP);
    expect(await page.locator('[data-sign-out-menu]').isVisible()).toBe(false);
    await page.locator('[data-sign-out] button').click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('signed-out'));
    expect(await session(page)).toBe(401);
    await page.goto(e2e().url(`/deals/${slug}/`));
    expect(await page.locator('[data-sign-out]').isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
    expect(e2e().site.errors).toEqual([]);
  } finally {
    await close();
  }
});

test('without JavaScript: /account/saved/ → sign in with a mailed link → back on /account/saved/, whose Sign out button signs out', async () => {
  const email = 'e2e-nojs-linker@example.com';
  addMember(email);
  const { page, close } = await openPage(e2e().browser, { viewport: PHONE, colorScheme: 'dark', javaScriptEnabled: false });
  try {
    await page.goto(e2e().url('/account/saved/'));
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/account/saved/');
    await askForLink(page, email);
    await page.goto(await mailedLink(email, 'signin'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/account/saved/');
    expect(await page.locator('h1').textContent()).toBe('Saved');
    await page.locator('[data-sign-out-form]').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('signed-out'));
    expect(await session(page)).toBe(401);
    expect(e2e().site.errors).toEqual([]);
  } finally {
    await close();
  }
});

test('/login, a sent link and the link page at phone width in dark and desktop width in light: no problems for axe, nothing wider than the screen', { timeout: 240_000 }, async () => {
  for (const [viewport, scheme] of [
    [PHONE, 'dark'],
    [DESKTOP, 'light'],
  ] as const) {
    const { page, close } = await openPage(e2e().browser, { viewport, colorScheme: scheme });
    try {
      for (const path of ['/login', '/login?link-sent=1&next=%2Fdeals%2F', '/login?error=signin_link_expired', '/login?error=link_email', '/sign-in-link?token=x']) {
        await page.goto(e2e().url(path));
        expect(await scan(page, path, scheme)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
      }
    } finally {
      await close();
    }
  }
});

test('sign up through the OpenID Connect provider from /signup: a new member, on the dashboard', async () => {
  const provider = await startOidcProvider({ newcomer: { email: 'e2e-newcomer@example.com', emailVerified: true } });
  const second = await e2e().site.serveWith({ OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret, OIDC_NAME: 'Test Provider' });
  provider.allowRedirect(`${second.url}${OIDC_CALLBACK_PATH}`);
  const { page, pageErrors, close } = await openPage(e2e().browser, { viewport: PHONE });
  try {
    await page.goto(`${second.url}/login`);
    expect(await page.getByRole('link', { name: 'Sign in with Test Provider' }).count()).toBe(1);
    await shoot(page, 'login-with-provider');
    await page.goto(`${second.url}/signup`);
    await page.getByRole('link', { name: 'Sign up with Test Provider' }).click();
    // The provider's own (development) login and consent pages.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name=login]').fill('newcomer');
    await page.locator('input[name=password]').fill('whatever');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.locator('button[type=submit]', { hasText: 'Continue' }).click();
    await page.waitForURL(`${second.url}/account/`);
    const signedIn = await page.evaluate(async () => (await fetch('/api/v1/auth/session')).json());
    expect(signedIn).toMatchObject({ user: { email: 'e2e-newcomer@example.com', role: 'member' } });
    expect(pageErrors).toEqual([]);
  } finally {
    await close();
    await second.stop();
    await provider.stop();
  }
});
