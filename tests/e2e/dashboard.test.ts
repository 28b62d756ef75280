/**
 * The member's dashboard in a real browser against the real server (issue 18, items 4 and 5),
 * with mail through a real SMTP server on 127.0.0.1: a new visitor signs up and confirms through
 * the mail the SMTP server received, saves a deal from its page, fills the profile on /account/
 * (a plain form) and gets deals they may qualify for; an admin changes the saved deal; the
 * dashboard flags it with what changed until the member marks it seen; the alert digest arrives
 * and its "Stop these e-mails" page turns alerts off. Without JavaScript, a member submits a deal
 * from the prefilled form and follows its review on the dashboard. Its own site and browser.
 * With E2E_SHOTS=<folder>, screenshots at phone and desktop widths, light and dark.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DESKTOP, openPage, PHONE, shoot } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { signUpAndSignIn } from './helpers/members.ts';
import { mailedLink, smtpMailbox, type Mailbox } from './helpers/mail.ts';
import { scan } from './suites/accessibility.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { addAccount, signInCookie } from './suites/admin.ts';

const ADMIN = { email: 'e2e-dashboard-admin@example.com', password: 'e2e-dashboard-password' };
const EMAIL = 'e2e-dashboard@example.com';
const PASSWORD = 'a long enough password';

// Mail goes through a real SMTP server here, as on a configured site (the other walks read the outbox of the default).
let smtp: Receiver<ReceivedMail>;
let mail: Mailbox;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  mail = smtpMailbox(smtp);
  await setUp({ SMTP_URL: smtp.url, SMTP_FROM: 'Startup Deals <deals@example.com>' });
  addAccount(ADMIN.email, '--password', ADMIN.password);
});
afterAll(async () => {
  await tearDown();
  await smtp?.close();
});

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

test('sign up, save a deal, fill the profile, see an admin change flagged until marked seen; the digest mail and its unsubscribe page work', async () => {
  const { page, pageErrors, close } = await openPage(e2e().browser, { viewport: DESKTOP });
  try {
    await signUpAndSignIn(page, { email: EMAIL, password: PASSWORD }, mail);
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
    const digest = await mail.newestMail(EMAIL, 'alert_digest');
    expect(digest).toContain(`Value: ${deal.value} → ${newValue}`);
    expect(digest).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
    await page.goto(await mailedLink(EMAIL, 'alert_digest', mail));
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

test('without JavaScript, a member submits a deal from the prefilled form and follows its review on the dashboard', async () => {
  const member = { email: 'e2e-submitter@example.com', password: PASSWORD };
  const { page, close } = await openPage(e2e().browser, { viewport: PHONE, colorScheme: 'dark', javaScriptEnabled: false });
  try {
    await signUpAndSignIn(page, member, mail);
    expect(await textOf(page, '[data-dashboard-submissions] p.muted')).toBe('Deals you submit while signed in show here, with where their review stands.');
    await page.locator('[data-dashboard-submissions]').getByRole('link', { name: 'Submit a deal' }).click();
    await page.waitForURL((url) => url.pathname === '/submit/');
    expect(await textOf(page, '[data-submit-member]')).toContain(member.email);
    expect(await page.getByLabel('Your e-mail (optional)').inputValue()).toBe(member.email);
    await page.getByLabel('Company name (required)').fill('Orbital Ledger');
    await page.getByLabel('Company website (required)').fill('https://orbital-ledger.example');
    await page.getByLabel('Category (required)').selectOption({ index: 1 });
    await page.getByLabel('What startups get (required)').fill('Six months of the team plan free for startups under two years old.');
    await page.getByLabel('Deal value (required)').fill('6 months free');
    await page.getByLabel('Redemption link or coupon code (required)').fill('https://orbital-ledger.example/startups');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL((url) => url.pathname === '/submit/thanks/');
    const id = new URL(page.url()).searchParams.get('id') as string;
    expect(id).toMatch(/^sub-[a-f0-9]{16}$/);

    await page.goto(e2e().url('/account/#submissions'));
    const row = page.locator(`[data-submission="${id}"]`);
    expect(await row.getAttribute('data-review')).toBe('pending');
    expect((await row.textContent())?.replace(/\s+/g, ' ')).toContain('Orbital Ledger');
    expect(await row.locator('.badge').textContent()).toBe('Waiting for review');
    await shoot(page, 'dashboard-submission-pending');

    // An editor publishes it: the dashboard says so and links to the deal.
    const approved = (await (await asAdmin('POST', '/api/v1/admin/submissions/approve', { id })).json()) as { deal: { slug: string; title: string } };
    await page.reload();
    expect(await row.getAttribute('data-review')).toBe('approved');
    expect(await row.locator('.badge').textContent()).toBe('Published');
    expect(await row.getByRole('link', { name: approved.deal.title }).getAttribute('href')).toBe(`/deals/${approved.deal.slug}/`);

    // The next form starts from the last company.
    await page.goto(e2e().url('/submit/'));
    expect(await page.getByLabel('Company name (required)').inputValue()).toBe('Orbital Ledger');
    expect(await page.getByLabel('Company website (required)').inputValue()).toBe('https://orbital-ledger.example');
    await shoot(page, 'submit-prefilled');

    // axe runs in the page, so it looks with JavaScript on, in the member's session.
    const looking = await openPage(e2e().browser, { viewport: DESKTOP });
    try {
      await looking.context.addCookies(await page.context().cookies());
      await looking.page.goto(e2e().url('/account/#submissions'));
      expect(await looking.page.locator(`[data-submission="${id}"]`).getAttribute('data-review')).toBe('approved');
      expect(await scan(looking.page, 'dashboard with a submission', 'light')).toEqual([]);
    } finally {
      await looking.close();
    }
  } finally {
    await close();
  }
});

test('without a session, /account/ sends the visitor to sign in and back', async () => {
  const response = await fetch(e2e().url('/account/'), { redirect: 'manual' });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/login?next=%2Faccount%2F');
});
