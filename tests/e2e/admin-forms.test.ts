/**
 * Admin forms people can use (issue 16, item 5), in the browser: the deal form's groups and the
 * schema's help text, a refused save showing every problem at once next to its field (the first
 * focused and in view, a summary linking to each); the deal list's sort, filters and pages kept
 * in the address, and bulk delete behind one confirmation. Its own site and browser.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DealSchema } from '../../src/schemas/deal.ts';
import { openPage, type OpenPage } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { addAccount, signInPage } from './suites/admin.ts';

const ADMIN = { email: 'e2e-forms@example.com', password: 'e2e-forms-password' };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

beforeAll(async () => {
  await setUp();
  addAccount(ADMIN.email, '--password', ADMIN.password);
});
afterAll(tearDown);

/** A signed-in admin page of `size`, in `scheme`. */
async function adminPage(size = DESKTOP, scheme: 'light' | 'dark' = 'light'): Promise<OpenPage> {
  const opened = await openPage(e2e().browser, { viewport: size, colorScheme: scheme });
  await signInPage(opened.page, ADMIN);
  return opened;
}

/** Whether the page scrolls sideways. */
const overflows = (page: Page): Promise<boolean> => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('deal form', () => {
  test('fields sit in five groups with the schema\'s descriptions as help, tied to their fields', async () => {
    const { page, pageErrors, close } = await adminPage();
    try {
      await page.goto(e2e().url('/admin/deal/'));
      expect(await page.locator('form[data-deal] fieldset > legend').allTextContents()).toEqual(['Basics', 'Value', 'Eligibility', 'Links', 'Placement']);
      // Every control of the form is inside one of them.
      expect(await page.locator('form[data-deal] :is(input, select, textarea):not(fieldset *)').count()).toBe(0);
      const help = await page.locator('#title-help').textContent();
      expect(help).toBe(DealSchema.shape.title.description?.replaceAll('`', ''));
      expect(await page.locator('#title').getAttribute('aria-describedby')).toBe('title-help title-error');
      expect(await page.locator('#featured-help').textContent()).toContain('Sponsored');
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  test('a refused save shows every problem at once, next to its field, the first focused and in view', async () => {
    const { page, pageErrors, close } = await adminPage(PHONE);
    try {
      await page.goto(e2e().url('/admin/deal/'));
      // No title, no provider, a link that is not http(s), a malformed slug.
      await page.locator('#applicationUrl').fill('ftp://example.com/apply');
      await page.locator('#providerWebsite').fill('not a link');
      await page.locator('#slug').fill('Not A Slug');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const summary = page.locator('[data-error-summary]');
      await expect.poll(() => summary.isVisible()).toBe(true);
      const invalid = await page.locator('form [aria-invalid=true]').evaluateAll((els) => els.map((e) => e.id));
      expect(invalid.sort()).toEqual(['applicationUrl', 'provider', 'providerWebsite', 'slug', 'title']);
      expect(await page.locator('#title-error').textContent()).toBe('Title is required.');
      expect(await page.locator('#applicationUrl-error').textContent()).toBe('Application URL must be an absolute http:// or https:// URL.');
      expect(await page.locator('#slug-error').textContent()).toMatch(/^Slug must be lowercase letters, digits and single hyphens/);
      // The summary lists them all, each a link to its field; nothing tells an editor to read the OpenAPI document.
      expect(await summary.locator('li a').count()).toBe(5);
      expect(await summary.locator('h2').textContent()).toBe('There are 5 problems to fix before saving');
      expect(await page.locator('main').textContent()).not.toContain('openapi');
      // The first field in the form's order is focused and on the screen.
      const focused = await page.evaluate(() => document.activeElement?.id);
      expect(focused).toBe('title');
      const box = await page.locator('#title').boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= PHONE.height).toBe(true);
      await summary.locator('li a', { hasText: 'Application URL' }).click();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('applicationUrl');
      expect(await overflows(page)).toBe(false);

      // Fixed, the save goes through and the marks go.
      await page.locator('#title').fill('E2E Forms Fixed credits');
      await page.locator('#provider').fill('Forms Inc');
      await page.locator('#applicationUrl').fill('https://forms.example/apply');
      await page.locator('#providerWebsite').fill('');
      await page.locator('#slug').fill('');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await expect.poll(() => page.locator('[data-status]').textContent()).toContain('Saved "E2E Forms Fixed credits"');
      expect(await summary.isVisible()).toBe(false);
      expect(await page.locator('form [aria-invalid]').count()).toBe(0);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
