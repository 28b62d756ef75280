/**
 * Member accounts in the browser with JavaScript off (issue 18, item 2): sign up, open the link
 * the site left in DATA_DIR/outbox (no SMTP configured: the fresh-clone default), sign in; ask
 * for a password reset and choose a new password through its link. Each page at phone width in
 * dark and desktop width in light, checked by axe (with JavaScript: axe runs in the page). Its
 * own site and browser.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openPage } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { mailedLink } from './helpers/mail.ts';
import { scan } from './suites/accessibility.ts';

beforeAll(() => setUp());
afterAll(tearDown);

const PHONE = { width: 390, height: 844 };

const message = (page: Page) => page.locator('[data-account-message], [data-login-message]').first().textContent();

test('sign up, confirm the address from the mail, sign in; forgot the password, choose a new one, sign in with it: all without JavaScript', async () => {
  const email = 'e2e-member@example.com';
  const { page, close } = await openPage(e2e().browser, { viewport: PHONE, colorScheme: 'dark', javaScriptEnabled: false });
  try {
    await page.goto(e2e().url('/login'));
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/signup$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/signup\?sent=1$/);
    expect(await page.getByRole('status').textContent()).toContain('Check your e-mail');

    // Not confirmed yet: the sign-in says so.
    await page.goto(e2e().url('/login'));
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/login\?error=unverified$/);
    expect(await message(page)).toContain('Confirm your e-mail address first');

    // The link opens a page whose button confirms (opening it alone confirms nothing).
    await page.goto(await mailedLink(email, 'verify'));
    expect(await page.locator('h1').textContent()).toBe('Confirm your e-mail address');
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.waitForURL(/\/login\?verified=1$/);
    expect(await page.getByRole('status').textContent()).toBe('Your e-mail address is confirmed: sign in.');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/account/');
    const session = await page.context().request.get(e2e().url('/api/v1/auth/session'));
    expect(await session.json()).toMatchObject({ user: { email, role: 'member' } });

    // Forgot it: the reset link, a new password, the old one refused.
    await page.goto(e2e().url('/login'));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.waitForURL(/\/forgot-password\?sent=1$/);
    expect(await page.getByRole('status').textContent()).toContain('If that address has an account');
    await page.goto(await mailedLink(email, 'reset'));
    await page.getByLabel('New password').fill('a different long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(/\/login\?reset=1$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/login\?error=invalid$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('a different long password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/account/');
  } finally {
    await close();
  }
});

test('the account pages at phone width in dark and desktop width in light: no problems for axe, nothing wider than the screen', async () => {
  for (const [viewport, scheme] of [
    [PHONE, 'dark'],
    [{ width: 1366, height: 900 }, 'light'],
  ] as const) {
    // axe runs in the page: JavaScript on here (the walk above has it off).
    const { page, close } = await openPage(e2e().browser, { viewport, colorScheme: scheme });
    try {
      for (const path of [
        '/signup',
        '/signup?sent=1',
        '/signup?error=password',
        '/confirm-email?token=x',
        '/forgot-password',
        '/reset-password?token=x',
        '/login?verified=1',
        '/login?error=unverified',
      ]) {
        await page.goto(e2e().url(path));
        expect(await scan(page, path, scheme)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
      await page.goto(e2e().url('/signup?error=password'));
      expect(await message(page)).toBe('Choose a password of at least 8 characters.');
    } finally {
      await close();
    }
  }
});
