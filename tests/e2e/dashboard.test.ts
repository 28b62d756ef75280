/**
 * The member's dashboard in a real browser against the real server (issue 18, item 4): a new
 * visitor signs up and confirms through the outbox mail, saves a deal from its page, fills the
 * profile on /account/ (a plain form) and gets deals they may qualify for; an admin changes the
 * saved deal; the dashboard flags it with what changed until the member marks it seen; the
 * alert digest lands in the outbox and its "Stop these e-mails" page turns alerts off. Its own
 * site and browser. With E2E_SHOTS=<folder>, screenshots at phone and desktop widths, light and dark.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DESKTOP, openPage, shoot } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { mailedLink, newestMail } from './helpers/outbox.ts';
import { scan } from './suites/accessibility.ts';
import { addAccount, signInCookie } from './suites/admin.ts';

const ADMIN = { email: 'e2e-dashboard-admin@example.com', password: 'e2e-dashboard-password' };
const EMAIL = 'e2e-dashboard@example.com';
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  await setUp();
  addAccount(ADMIN.email, '--password', ADMIN.password);
});
afterAll(tearDown);

/** An admin request (same-origin, signed in). */
async function asAdmin(method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(e2e().url(path), {
    method,
    headers: { Cookie: await signInCookie(ADMIN), Origin: e2e().url(''), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return response;
}

/** An element's text, without the white space around it. */
async function textOf(page: Page, selector: string): Promise<string | undefined> {
  return (await page.locator(selector).textContent())?.trim();
}

async function signUp(page: Page): Promise<void> {
  await page.goto(e2e().url('/signup'));
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/signup\?sent=1$/);
  await page.goto(await mailedLink(EMAIL, 'verify'));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await page.waitForURL(/\/login\?verified=1$/);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

test('sign up, save a deal, fill the profile, see an admin change flagged until marked seen; the digest mail and its unsubscribe page work', async () => {
  const { page, pageErrors, close } = await openPage(e2e().browser, { viewport: DESKTOP });
  try {
    await signUp(page);
    // A deal with a headline value, saved from its page.
    const list = (await (await fetch(e2e().url('/api/v1/deals?limit=50'))).json()) as { deals: Array<{ id: string; slug: string; title: string; value?: string }> };
    const deal = list.deals.find((d) => d.value) as { id: string; slug: string; title: string; value: string };
    await page.goto(e2e().url(`/deals/${deal.slug}/`));
    const save = page.locator('.offer form[data-save] button');
    await expect.poll(() => save.getAttribute('aria-pressed')).toBe('false');
    await save.click();
    await expect.poll(() => save.getAttribute('aria-pressed')).toBe('true');

    await page.goto(e2e().url('/account/'));
    await expect.poll(() => textOf(page, '[data-changed-count]')).toBe('Nothing changed since you last looked.');
    // The profile: a plain form post, back to the dashboard with suggestions.
    await page.getByLabel('Stage').selectOption('seed');
    await page.getByLabel('Based in').selectOption('us');
    await page.getByLabel('What you build').fill('cloud hosting');
    await page.getByLabel(/E-mail me a digest/).check();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForURL(/\/account\/\?profile=1#profile-note$/);
    expect(await textOf(page, '.note')).toBe('Your profile is saved.');
    expect(await page.locator('[data-qualify]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-qualify] .reasons', { hasText: 'Matches “cloud hosting”' }).count()).toBeGreaterThan(0);
    expect(await page.getByLabel(/E-mail me a digest/).isChecked()).toBe(true);

    // An admin changes the saved deal: flagged, with the change in words.
    const newValue = `${deal.value} (now doubled)`;
    await asAdmin('PUT', '/api/v1/deals', { id: deal.id, value: newValue });
    await page.goto(e2e().url('/account/'));
    const changed = page.locator(`[data-changed-item="deal:${deal.id}"]`);
    await changed.waitFor();
    expect((await changed.locator('[data-change="value"]').textContent())?.trim()).toBe(`Value: ${deal.value} → ${newValue}`);
    expect(await textOf(page, '[data-changed-count]')).toBe('1 of 1 changed since you last looked.');
    expect(pageErrors).toEqual([]);
    expect(await scan(page, 'dashboard', 'light')).toEqual([]);
    await shoot(page, 'dashboard');

    // The digest (sent by the round the admin runs now, or by the server's own timer before it).
    await asAdmin('POST', '/api/v1/admin/alerts');
    const digest = await newestMail(EMAIL, 'alert_digest');
    expect(digest).toContain(`Value: ${deal.value} → ${newValue}`);
    expect(digest).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    await page.goto(await mailedLink(EMAIL, 'alert_digest'));
    await shoot(page, 'unsubscribe');
    await page.getByRole('button', { name: 'Stop alert e-mails' }).click();
    await page.waitForURL(/\/account\/unsubscribe\?sent=1$/);
    expect(await page.locator('[data-account-note]').textContent()).toContain('alerts are off');

    // Marked seen: the flag goes, and the profile shows alerts off.
    await page.goto(e2e().url('/account/'));
    await page.getByRole('button', { name: `Seen ${deal.title}` }).click();
    await page.waitForURL(/\/account\/\?seen=1#saved-heading$/);
    expect(await textOf(page, '[data-changed-count]')).toBe('Nothing changed since you last looked.');
    expect(await page.locator('[data-changed-item]').count()).toBe(0);
    expect(await page.getByLabel(/E-mail me a digest/).isChecked()).toBe(false);
  } finally {
    await close();
  }
});

test('without a session, /account/ sends the visitor to sign in and back', async () => {
  const response = await fetch(e2e().url('/account/'), { redirect: 'manual' });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/login?next=%2Faccount%2F');
});
