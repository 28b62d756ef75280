/**
 * The submission form on /submit/: field errors from the API shown next to the field (with
 * JavaScript, no navigation), the thanks page after a valid submission, and the same two outcomes
 * for a plain form post without JavaScript. Accepted submissions land in the run's private
 * store (DATA_DIR/submissions/pending), never in its content repository.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { openPage } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';

interface Fields {
  company_name: string;
  website_url: string;
  deal_value: string;
  redemption_link: string;
  benefit_description: string;
  category: string;
}

const valid = (company: string): Fields => ({
  company_name: company,
  website_url: 'https://example.com',
  deal_value: '50% off for 12 months',
  redemption_link: 'https://example.com/startups',
  benefit_description: 'Half price on every plan for the first year, for startups under 20 people.',
  category: 'saas',
});

async function fill(page: Page, fields: Fields): Promise<void> {
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'category') await page.locator('#category').selectOption(value);
    else await page.locator(`#${name}`).fill(value);
  }
}

/** What /submit/ shows next to the company name for `?error=too_short&field=company_name` (the schema's minimum: 2). */
const TOO_SHORT_COMPANY = 'Too short: at least 2 characters.';

/** What the API answers for the same fields (a rejected submission does not use the hourly budget). */
async function apiError(fields: Fields): Promise<string> {
  const response = await fetch(e2e().url('/api/v1/submit-deal'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fields) });
  const body = (await response.json()) as { error?: string };
  expect(response.status).toBe(400);
  return body.error ?? '';
}

/** Submissions waiting in the run's private store. */
function pendingSubmissions(): string[] {
  const pending = join(e2e().site.dataDir, 'submissions', 'pending');
  return existsSync(pending) ? readdirSync(pending) : [];
}

export function submitSuite(): void {
  describe('submit form', () => {
    test('with JavaScript: an invalid company name shows the API message next to that field without leaving the page; a valid one lands on /submit/thanks/', async () => {
      const invalid = { ...valid('A') };
      const message = await apiError(invalid);
      expect(message).toMatch(/^company_name /);
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url('/submit/'));
        await page.evaluate(() => Object.assign(window, { e2eMarker: 'same document' }));
        await fill(page, invalid);
        const [response] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/submit-deal'), page.getByRole('button', { name: 'Submit for review' }).click()]);
        expect(response.status()).toBe(400);
        const slot = page.locator('[data-error-for="company_name"]');
        await slot.filter({ hasText: message }).waitFor({ timeout: 10_000 });
        expect((await slot.textContent())?.trim()).toBe(message);
        // Next to the field: the slot follows the input and is its description.
        expect(await page.locator('#company_name').getAttribute('aria-describedby')).toBe('company_name-error');
        expect(await page.locator('#company_name + .field-error').getAttribute('id')).toBe('company_name-error');
        expect(await page.locator('#company_name').getAttribute('aria-invalid')).toBe('true');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('company_name');
        // No other field shows an error, and the page was not reloaded or left.
        const others = await page.locator('[data-error-for]:not([data-error-for="company_name"])').allTextContents();
        expect(others.map((t) => t.trim()).filter(Boolean)).toEqual([]);
        expect(new URL(page.url()).pathname).toBe('/submit/');
        expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('same document');

        const before = pendingSubmissions().length;
        await page.locator('#company_name').fill(`E2E Browser Co ${Date.now()}`);
        await Promise.all([page.waitForURL('**/submit/thanks/?id=*'), page.getByRole('button', { name: 'Submit for review' }).click()]);
        expect(new URL(page.url()).searchParams.get('id')).toMatch(/\S/);
        expect((await page.locator('main h1').textContent())?.trim()).toBe('Thank you');
        expect(pendingSubmissions().length).toBe(before + 1);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test('without JavaScript: a valid post redirects to /submit/thanks/', async () => {
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/submit/'));
        const before = pendingSubmissions().length;
        await fill(page, valid(`E2E No-Script Co ${Date.now()}`));
        await Promise.all([page.waitForURL('**/submit/thanks/?id=*'), page.getByRole('button', { name: 'Submit for review' }).click()]);
        expect(new URL(page.url()).searchParams.get('id')).toMatch(/\S/);
        expect((await page.locator('main h1').textContent())?.trim()).toBe('Thank you');
        expect(pendingSubmissions().length).toBe(before + 1);
      } finally {
        await close();
      }
    });

    test('without JavaScript: an invalid post redirects back to /submit/?error=<code>&field=<field> and the page shows its own message for it', async () => {
      const invalid = valid('A');
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/submit/'));
        await fill(page, invalid);
        await Promise.all([page.waitForURL('**/submit/?error=*'), page.getByRole('button', { name: 'Submit for review' }).click()]);
        const url = new URL(page.url());
        expect(url.pathname).toBe('/submit/');
        // A code and a field, never the message itself (issue 11, item 12).
        expect(Object.fromEntries(url.searchParams)).toEqual({ error: 'too_short', field: 'company_name' });
        // The visitor must see why the submission was refused, next to the field.
        expect((await page.locator('[data-error-for="company_name"]').textContent())?.trim()).toBe(TOO_SHORT_COMPANY);
        expect(await page.locator('#company_name').getAttribute('aria-invalid')).toBe('true');
      } finally {
        await close();
      }
    });

    test('with JavaScript, arriving on /submit/?error=<code>&field=<field> (after a plain post) shows the message next to the field, focused', async () => {
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url(`/submit/?${new URLSearchParams({ error: 'too_short', field: 'company_name' })}`));
        const slot = page.locator('[data-error-for="company_name"]');
        await slot.filter({ hasText: TOO_SHORT_COMPANY }).waitFor({ timeout: 10_000 });
        expect(await page.locator('#company_name').getAttribute('aria-invalid')).toBe('true');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('company_name');
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    describe('text in the query is never shown (a link cannot put its words on this site)', () => {
      const PHISHING = 'Your account is locked, call +1 555 0100 and give your password';
      const GENERIC = 'The submission could not be accepted; check the fields and try again.';
      test.each([
        ['as the error', { error: PHISHING }],
        ['as the error of a field', { error: PHISHING, field: 'company_name' }],
        ['as the field', { error: 'required', field: PHISHING }],
        ['as an inherited property name', { error: 'constructor', field: 'company_name' }],
      ])('%s', async (_name, query) => {
        for (const javaScriptEnabled of [true, false]) {
          const { page, pageErrors, close } = await openPage(e2e().browser, { javaScriptEnabled });
          try {
            await page.goto(e2e().url(`/submit/?${new URLSearchParams(query)}`));
            const main = await page.locator('main').innerText();
            expect(main).not.toContain('locked');
            expect(main).not.toContain('555');
            expect(main).not.toContain('function');
            expect(await page.content()).not.toContain('locked');
            // Something went wrong, and the page says so in its own words, once.
            expect((await page.locator('[data-form-error]').textContent())?.trim()).toBe(GENERIC);
            const fieldErrors = (await page.locator('[data-error-for]').allTextContents()).map((t) => t.trim()).filter(Boolean);
            expect(fieldErrors).toEqual([]);
            expect(pageErrors).toEqual([]);
          } finally {
            await close();
          }
        }
      });

      test.each(['Your account is locked, call +1 555 0100', 'constructor', 'valueOf', '__proto__'])('the sign-in page words its own codes the same way: /login?error=%s', async (error) => {
        const response = await fetch(e2e().url(`/login?${new URLSearchParams({ error })}`));
        expect(response.status).toBe(200);
        const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
        try {
          await page.goto(e2e().url(`/login?${new URLSearchParams({ error })}`));
          expect((await page.locator('[data-login-message]').textContent())?.trim()).toBe('Sign-in failed.');
        } finally {
          await close();
        }
      });
    });
  });
}
