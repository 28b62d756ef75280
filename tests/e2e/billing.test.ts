/**
 * Paid plans in a real browser against the real server (issue 18, item 6): a second server on the
 * same build and accounts with Stripe configured (PLAN_REQUIRED_FOR=saved), pointed at a
 * RECORDING SERVER in place of Stripe's API (tests/helpers/stripe-recorder.ts: this machine
 * cannot reach Stripe; its "Checkout" and "portal" pages are plain pages of that server). A
 * member's Save goes to /account/billing/, which offers the 30-day trial; the button's form post
 * lands on the Checkout page the recording server answered (the page's Content-Security-Policy
 * lets the form end there); a signed `customer.subscription.created` (the official library's test
 * helper) puts the member on the trial, the page says until when and offers Manage billing, and
 * saving works. Without JavaScript too. The default server (nothing configured) says members are free.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DESKTOP, openPage, PHONE, shoot } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { scan } from './suites/accessibility.ts';
import { billingEnv, deliver, now, subscriptionEvent } from '../helpers/stripe-events.ts';
import { startStripeRecorder, type StripeRecorder } from '../helpers/stripe-recorder.ts';
import { addAccount } from '../helpers/writes-harness.ts';

const MEMBER = { email: 'e2e-payer@example.com', role: 'member' as const, password: 'a long enough password' };
let recorder: StripeRecorder;
let billed: { url: string; stop: () => Promise<void> };

beforeAll(async () => {
  await setUp();
  recorder = await startStripeRecorder();
  billed = await e2e().site.serveWith(billingEnv(recorder.url, 'saved'));
  addAccount(e2e().site.dataDir, MEMBER);
});
afterAll(async () => {
  await billed?.stop();
  await recorder?.stop();
  await tearDown();
});

const at = (path: string) => `${billed.url}${path}`;

async function signIn(page: Page, next: string): Promise<void> {
  await page.goto(at(`/login?next=${encodeURIComponent(next)}`));
  await page.getByLabel('E-mail').fill(MEMBER.email);
  await page.getByLabel('Password').fill(MEMBER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === next);
}

test('a member without a plan is sent to the billing page, starts the trial through Checkout, and once the signed webhook arrives is on the plan and saves', async () => {
  const { page, close } = await openPage(e2e().browser, { viewport: DESKTOP });
  try {
    await signIn(page, '/deals/');
    const card = page.locator('li.card form[data-save]').first();
    await expect.poll(() => card.locator('button').getAttribute('aria-pressed')).toBe('false');
    await card.locator('button').click();
    // The API said 402: the script goes where a form post would.
    await page.waitForURL((url) => url.pathname === '/account/billing/' && url.searchParams.get('needed') === 'saved');
    expect(await page.locator('[data-plan-needed]').textContent()).toBe('Saving deals needs a plan on this site.');
    expect(await page.locator('[data-plan-words]').textContent()).toBe('You are not on the plan.');
    const start = page.getByRole('button', { name: 'Start 30-day trial' });
    expect(await start.isVisible()).toBe(true);
    expect(await page.locator('[data-portal]').count()).toBe(0);
    expect(await scan(page, '/account/billing/', 'light')).toEqual([]);
    await shoot(page, 'account-billing-start');

    const from = recorder.requests.length;
    await start.click();
    await page.waitForURL((url) => url.origin === recorder.url && url.pathname.startsWith('/pay/cs_test_'));
    expect(await page.textContent('body')).toContain('Recording server, not Stripe');
    expect(recorder.requests[from]?.params).toMatchObject({ mode: 'subscription', client_reference_id: MEMBER.email, 'subscription_data[trial_period_days]': '30' });

    // What Stripe would send once the member completed Checkout.
    const trialEnd = now() + 30 * 86_400;
    const created = subscriptionEvent('created', { id: 'sub_e2e_1', customer: 'cus_e2e_1', status: 'trialing', account: MEMBER.email, trialEnd, periodEnd: trialEnd });
    const delivered = await deliver(billed.url, created);
    expect(delivered.status, delivered.text).toBe(200);

    await page.goto(at('/account/billing/?started=1'));
    const ends = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(trialEnd * 1000));
    expect(await page.locator('[data-plan-words]').textContent()).toBe(`You are on the free trial: it ends on ${ends}, and the plan then renews.`);
    expect(await page.locator('[data-billing-note]').isVisible()).toBe(true);
    expect(await page.locator('[data-checkout]').count()).toBe(0);
    expect(await scan(page, '/account/billing/ on the trial', 'light')).toEqual([]);
    await shoot(page, 'account-billing-trial');
    // At phone width in the dark scheme: nothing wider than the screen, and as accessible.
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await scan(page, '/account/billing/ (phone)', 'dark')).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });

    await page.goto(at('/deals/'));
    const button = page.locator('li.card form[data-save] button').first();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false');
    await button.click();
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');

    await page.goto(at('/account/billing/'));
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL((url) => url.origin === recorder.url && url.pathname.startsWith('/portal/bps_test_'));
    expect(recorder.requests.at(-1)?.params).toMatchObject({ customer: 'cus_e2e_1', return_url: at('/account/billing/') });
    expect(e2e().site.errors).toEqual([]);
  } finally {
    await close();
  }
});

test("without JavaScript: the plan page's buttons are plain forms that reach Stripe (the recording server)", async () => {
  const { page, close } = await openPage(e2e().browser, { viewport: PHONE, colorScheme: 'dark', javaScriptEnabled: false });
  try {
    await signIn(page, '/account/billing/');
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL((url) => url.origin === recorder.url && url.pathname.startsWith('/portal/'));
    expect(e2e().site.errors).toEqual([]);
  } finally {
    await close();
  }
});

test('paid plans off (the default server): the billing page says members are free; anonymous visitors are sent to sign in', async () => {
  const { page, close } = await openPage(e2e().browser, { viewport: DESKTOP, javaScriptEnabled: false });
  try {
    await page.goto(e2e().url('/account/billing/'));
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/account/billing/');
    await page.getByLabel('E-mail').fill(MEMBER.email);
    await page.getByLabel('Password').fill(MEMBER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/account/billing/');
    expect(await page.locator('[data-billing-off]').textContent()).toContain('Members are free here');
    expect(
      await page
        .locator('form')
        .filter({ has: page.locator('[data-checkout], [data-portal]') })
        .count(),
    ).toBe(0);
    const response = await page.request.get(e2e().url('/account/billing/'));
    expect(response.headers()['cache-control']).toBe('private, no-store');
    expect(response.headers()['content-security-policy']).toContain("form-action 'self';");
    expect(e2e().site.errors).toEqual([]);
  } finally {
    await close();
  }
});
