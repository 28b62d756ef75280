/**
 * The submission form on /submit/: field errors from the API shown next to the field (with
 * JavaScript, no navigation), the thanks page after a valid submission, and the same two outcomes
 * for a plain form post without JavaScript. Accepted submissions commit into the run's content copy.
 */
import { execFileSync } from 'node:child_process';
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

/** What the API answers for the same fields (a rejected submission does not use the hourly budget). */
async function apiError(fields: Fields): Promise<string> {
  const response = await fetch(e2e().url('/api/v1/submit-deal'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fields) });
  const body = (await response.json()) as { error?: string };
  expect(response.status).toBe(400);
  return body.error ?? '';
}

/** Commit subjects in the run's content repository, newest first. */
function commits(): string[] {
  const repo = join(e2e().site.work, 'repo');
  return execFileSync('git', ['log', '--format=%s'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');
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

        const before = commits().length;
        await page.locator('#company_name').fill(`E2E Browser Co ${Date.now()}`);
        await Promise.all([page.waitForURL('**/submit/thanks/?id=*'), page.getByRole('button', { name: 'Submit for review' }).click()]);
        expect(new URL(page.url()).searchParams.get('id')).toMatch(/\S/);
        expect((await page.locator('main h1').textContent())?.trim()).toBe('Thank you');
        expect(commits().length).toBe(before + 1);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    test('without JavaScript: a valid post redirects to /submit/thanks/', async () => {
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/submit/'));
        const before = commits().length;
        await fill(page, valid(`E2E No-Script Co ${Date.now()}`));
        await Promise.all([page.waitForURL('**/submit/thanks/?id=*'), page.getByRole('button', { name: 'Submit for review' }).click()]);
        expect(new URL(page.url()).searchParams.get('id')).toMatch(/\S/);
        expect((await page.locator('main h1').textContent())?.trim()).toBe('Thank you');
        expect(commits().length).toBe(before + 1);
      } finally {
        await close();
      }
    });

    test('without JavaScript: an invalid post redirects back to /submit/?error=… and the page shows the error', async () => {
      const invalid = valid('A');
      const message = await apiError(invalid);
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        await page.goto(e2e().url('/submit/'));
        await fill(page, invalid);
        await Promise.all([page.waitForURL('**/submit/?error=*'), page.getByRole('button', { name: 'Submit for review' }).click()]);
        const url = new URL(page.url());
        expect(url.pathname).toBe('/submit/');
        expect(url.searchParams.get('error')).toBe(message);
        expect(url.searchParams.get('field')).toBe('company_name');
        // The visitor must see why the submission was refused.
        expect(await page.locator('main').innerText()).toContain(message);
      } finally {
        await close();
      }
    });

    test('with JavaScript, arriving on /submit/?error=…&field=… (after a plain post) shows the error next to the field', async () => {
      const message = 'company_name must be at least 2 characters';
      const { page, close } = await openPage(e2e().browser);
      try {
        await page.goto(e2e().url(`/submit/?${new URLSearchParams({ error: message, field: 'company_name' })}`));
        const slot = page.locator('[data-error-for="company_name"]');
        await slot.filter({ hasText: message }).waitFor({ timeout: 10_000 });
        expect(await page.locator('#company_name').getAttribute('aria-invalid')).toBe('true');
      } finally {
        await close();
      }
    });
  });
}
