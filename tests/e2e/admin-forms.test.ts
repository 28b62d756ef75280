/**
 * Admin forms people can use (issue 16, item 5), in the browser: the deal form's groups and the
 * schema's help text, a refused save showing every problem at once next to its field (the first
 * focused and in view, a summary linking to each); the description's Markdown preview, the
 * site's own rendering; the deal list's sort, filters and pages kept in the address, and bulk
 * delete behind one confirmation. Its own site and browser.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PAGE_SIZE } from '../../src/admin/deal-list.ts';
import { DealSchema } from '../../src/schemas/deal.ts';
import { getJson, openPage, type ApiDeal, type OpenPage } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { scan } from './suites/accessibility.ts';
import { addAccount, signInCookie, signInPage } from './suites/admin.ts';

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
  test("fields sit in six groups with the schema's descriptions as help, tied to their fields", async () => {
    const { page, pageErrors, close } = await adminPage();
    try {
      await page.goto(e2e().url('/admin/deal/'));
      expect(await page.locator('form[data-deal] > fieldset > legend').allTextContents()).toEqual([
        'Basics',
        'Value',
        'Program facts (accelerators, incubators, grants)',
        'Eligibility',
        'Links',
        'Placement',
      ]);
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
      expect(await scan(page, 'deal form with problems', 'light')).toEqual([]);

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

      // One deal is deleted from its edit page, after one confirmation; the list says so.
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete deal…' }).click();
      await page.waitForURL(/\/admin\/(\?deleted=.*)?$/);
      await expect.poll(() => page.locator('[data-status]').textContent()).toBe('Deleted "E2E Forms Fixed credits". Undo: restore it');
      expect(page.url()).toMatch(/\/admin\/$/);
      expect((await fetch(e2e().url('/api/v1/deals?slug=e2e-forms-fixed-credits'))).status).toBe(404);

      // Undone: the deleted deal's page shows its history alone; its last version comes back, live again.
      await page.locator('[data-status]').getByRole('link', { name: 'restore it' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Deleted deal: e2e-forms-fixed-credits');
      expect(await page.locator('form[data-deal]').isVisible()).toBe(false);
      const versions = page.locator('[data-history] .version');
      await expect.poll(() => versions.count()).toBe(2);
      page.once('dialog', (dialog) => void dialog.accept());
      await versions.nth(1).getByRole('button', { name: 'Restore this version' }).click();
      await expect.poll(() => page.locator('[data-status]').textContent()).toMatch(/^Restored the version of /);
      expect(await page.locator('#title').inputValue()).toBe('E2E Forms Fixed credits');
      expect((await fetch(e2e().url('/api/v1/deals?slug=e2e-forms-fixed-credits'))).status).toBe(200);

      // A slug that names no deal, now or ever: no empty form to save by mistake.
      await page.goto(e2e().url('/admin/deal/?slug=no-such-deal-ever'));
      await expect.poll(() => page.locator('h1').textContent()).toBe('No such deal');
      expect(await page.locator('form[data-deal]').isVisible()).toBe(false);
      expect(await page.locator('[data-status]').textContent()).toMatch(/^No deal has slug no-such-deal-ever/);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});

test("a program's facts (value in dollars, equity, stages, regions, deadline) are saved from the form and shown again when it reopens", async () => {
  const { page, pageErrors, close } = await adminPage();
  try {
    await page.goto(e2e().url('/admin/deal/'));
    await page.locator('#title').fill('E2E Program facts accelerator');
    await page.locator('#provider').fill('Facts Ventures');
    await page.locator('#applicationUrl').fill('https://facts.example/apply');
    await page.locator('#valueUsd').fill('125,000');
    await page.locator('#equityPercent').fill('7.5');
    const stages = page.getByRole('group', { name: 'Stages' });
    await stages.getByRole('checkbox', { name: 'Pre-seed', exact: true }).check();
    await stages.getByRole('checkbox', { name: 'Seed', exact: true }).check();
    await page.getByRole('group', { name: 'Regions' }).getByRole('checkbox', { name: 'Europe', exact: true }).check();
    await page.locator('#nextDeadline').fill('2027-03-01');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.locator('[data-status]').textContent()).toContain('Saved "E2E Program facts accelerator"');
    const { deal } = (await getJson(e2e().url('/api/v1/deals?slug=e2e-program-facts-accelerator'))) as { deal: ApiDeal & Record<string, unknown> };
    expect({ valueUsd: deal.valueUsd, equityPercent: deal.equityPercent, stages: deal.stages, regions: deal.regions, nextDeadline: deal.nextDeadline }).toEqual({
      valueUsd: 125_000,
      equityPercent: 7.5,
      stages: ['pre-seed', 'seed'],
      regions: ['europe'],
      nextDeadline: '2027-03-01',
    });
    // Reopened, the form shows what is stored; unticking every region removes the field.
    await page.goto(e2e().url('/admin/deal/?slug=e2e-program-facts-accelerator'));
    await expect.poll(() => stages.getByRole('checkbox', { name: 'Seed', exact: true }).isChecked()).toBe(true);
    expect(await stages.getByRole('checkbox', { name: 'Idea', exact: true }).isChecked()).toBe(false);
    await page.getByRole('group', { name: 'Regions' }).getByRole('checkbox', { name: 'Europe', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.locator('[data-status]').textContent()).toContain('It is live now');
    const after = (await getJson(e2e().url('/api/v1/deals?slug=e2e-program-facts-accelerator'))) as { deal: Record<string, unknown> };
    expect(after.deal.regions).toBeUndefined();
    expect(after.deal.stages).toEqual(['pre-seed', 'seed']);
    expect(pageErrors).toEqual([]);
  } finally {
    await close();
  }
});

describe('description editor', () => {
  test('Write and Preview tabs; the preview is exactly what the deal page shows (raw HTML as text, unsafe links dropped)', async () => {
    const markdown = '## Terms\n\nGet **$5,000** in *credits*, `code` too. [Apply](https://md.example/apply) [bad](javascript:alert(1)) <b>raw</b>\n\n- one\n- two';
    const { page, pageErrors, close } = await adminPage();
    try {
      await page.goto(e2e().url('/admin/deal/'));
      await page.locator('#title').fill('E2E Markdown Meadow credits');
      await page.locator('#provider').fill('Meadow');
      await page.locator('#applicationUrl').fill('https://md.example/apply');
      await page.locator('#description').fill(markdown);
      const previewTab = page.getByRole('tab', { name: 'Preview' });
      await previewTab.click();
      expect(await previewTab.getAttribute('aria-selected')).toBe('true');
      expect(await page.locator('#description').isVisible()).toBe(false);
      const panel = page.getByRole('tabpanel', { name: 'Preview' });
      expect(await panel.locator('strong').textContent()).toBe('$5,000');
      expect(await panel.locator('b').count()).toBe(0);
      expect(await panel.textContent()).toContain('<b>raw</b>');
      expect(await panel.locator('a[href^=javascript]').count()).toBe(0);
      const preview = await panel.innerHTML();
      // Arrow keys move between the tabs; Write shows the text again.
      await previewTab.press('ArrowLeft');
      expect(await page.locator('#description').isVisible()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('description-write-tab');

      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await expect.poll(() => page.locator('[data-status]').textContent()).toContain('Saved "E2E Markdown Meadow credits"');
      await page.goto(e2e().url('/deals/e2e-markdown-meadow-credits/'));
      expect(await page.locator('.prose').innerHTML()).toBe(preview);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
      const cookie = await signInCookie(ADMIN);
      await fetch(e2e().url('/api/v1/deals?slug=e2e-markdown-meadow-credits'), { method: 'DELETE', headers: { Cookie: cookie, Origin: e2e().url('') } });
    }
  });
});

describe('deal list', () => {
  /** The titles of the rows shown. */
  const titles = (page: Page): Promise<string[]> => page.locator('[data-rows] tr td:nth-child(2)').allTextContents();
  const query = (page: Page): URLSearchParams => new URL(page.url()).searchParams;

  test('sorts, filters and pages, the view in the address; the back button returns to the view before', async () => {
    const { deals } = await getJson<{ deals: ApiDeal[] }>(e2e().url('/api/v1/deals?status=all&scope=all&limit=5000'));
    const { page, pageErrors, close } = await adminPage();
    try {
      await page.goto(e2e().url('/admin/'));
      await expect.poll(() => page.locator('[data-rows] tr').count()).toBe(PAGE_SIZE);
      expect(await page.locator('[data-pager]').textContent()).toContain(`Page 1 of ${Math.ceil(deals.length / PAGE_SIZE)}`);
      // No Delete button on each row: deleting is a bulk action or the edit page's.
      expect(await page.locator('[data-rows] button').count()).toBe(0);

      await page.getByRole('button', { name: 'Title', exact: true }).click();
      expect(query(page).get('sort')).toBe('title');
      const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
      const byTitle = deals.map((d) => d.title).sort(collator.compare);
      expect(await titles(page)).toEqual(byTitle.slice(0, PAGE_SIZE));
      expect(await page.locator('th[data-column=title]').getAttribute('aria-sort')).toBe('ascending');
      await page.getByRole('button', { name: 'Title', exact: true }).click();
      expect(query(page).get('dir')).toBe('desc');
      expect(await titles(page)).toEqual([...byTitle].reverse().slice(0, PAGE_SIZE));

      await page.getByRole('link', { name: 'Next' }).click();
      expect(query(page).get('page')).toBe('2');
      expect(await titles(page)).toEqual([...byTitle].reverse().slice(PAGE_SIZE, 2 * PAGE_SIZE));
      await page.goBack();
      expect(query(page).get('page')).toBeNull();
      expect(await titles(page)).toEqual([...byTitle].reverse().slice(0, PAGE_SIZE));

      // Filters: each narrows the list and is in the address; a new filter starts on page 1.
      await page.locator('#f-category').selectOption('cloud-credits');
      expect(query(page).get('category')).toBe('cloud-credits');
      const cloud = deals.filter((d) => d.category === 'cloud-credits');
      await expect.poll(() => page.locator('[data-status]').textContent()).toMatch(new RegExp(`^${cloud.length} deals`));
      await page.locator('#f-sponsored').selectOption('yes');
      const sponsored = cloud.filter((d) => d.featured);
      expect(query(page).get('sponsored')).toBe('yes');
      expect((await titles(page)).sort()).toEqual(sponsored.map((d) => d.title).sort());
      await page.locator('#f-sponsored').selectOption('');
      await page.locator('#f-status').selectOption('expired');
      await page.locator('#f-pick').selectOption('no');
      const expiredNotPicks = cloud.filter((d) => d.status === 'expired' && !d.recommended);
      expect((await titles(page)).sort()).toEqual(expiredNotPicks.map((d) => d.title).sort());
      await page.locator('#f-draft').selectOption('yes');
      expect(query(page).get('draft')).toBe('yes');
      expect(await page.locator('[data-rows]').textContent()).toContain('No deal matches these filters.');

      // The address alone gives the view (a link, a reload).
      await page.goto(e2e().url('/admin/?category=cloud-credits&status=expired&pick=no&sort=title'));
      await expect.poll(() => page.locator('#f-category').inputValue()).toBe('cloud-credits');
      expect(await page.locator('#f-status').inputValue()).toBe('expired');
      expect(await titles(page)).toEqual(expiredNotPicks.map((d) => d.title).sort(collator.compare));
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  test('bulk delete: one confirmation listing the selected deals removes exactly those; Cancel removes none', async () => {
    const cookie = await signInCookie(ADMIN);
    const headers = { 'Content-Type': 'application/json', Cookie: cookie, Origin: e2e().url('') };
    const made = ['Alpha', 'Beta', 'Gamma'].map((name) => ({ title: `E2E Bulkword ${name}`, provider: 'Bulk', category: 'cloud-credits', applicationUrl: 'https://bulk.example/apply' }));
    for (const deal of made) expect((await fetch(e2e().url('/api/v1/deals'), { method: 'POST', headers, body: JSON.stringify(deal) })).status).toBe(200);
    const { page, pageErrors, close } = await adminPage(PHONE);
    try {
      await page.goto(e2e().url('/admin/?q=bulkword'));
      await expect.poll(() => page.locator('[data-rows] tr').count()).toBe(3);
      expect(await overflows(page)).toBe(false);
      await page.getByRole('checkbox', { name: 'Select E2E Bulkword Alpha' }).check();
      await page.getByRole('checkbox', { name: 'Select E2E Bulkword Gamma' }).check();
      expect(await page.locator('[data-selected-count]').textContent()).toBe('2 deals selected.');

      await page.getByRole('button', { name: 'Delete selected…' }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.locator('h2').textContent()).toBe('Delete 2 deals?');
      expect(await dialog.locator('li').allTextContents()).toEqual(['E2E Bulkword Alpha', 'E2E Bulkword Gamma']);
      expect(await scan(page, 'deal list, confirming a delete', 'light')).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(await dialog.isVisible()).toBe(false);
      for (const slug of ['e2e-bulkword-alpha', 'e2e-bulkword-gamma']) expect((await fetch(e2e().url(`/api/v1/deals?slug=${slug}`))).status).toBe(200);

      await page.getByRole('button', { name: 'Delete selected…' }).click();
      await dialog.getByRole('button', { name: 'Delete 2 deals' }).click();
      await expect.poll(() => page.locator('[data-status]').textContent()).toBe('Deleted 2 deals. Undo: restore E2E Bulkword Alpha · restore E2E Bulkword Gamma');
      expect((await fetch(e2e().url('/api/v1/deals?slug=e2e-bulkword-alpha'))).status).toBe(404);
      expect((await fetch(e2e().url('/api/v1/deals?slug=e2e-bulkword-gamma'))).status).toBe(404);
      expect((await fetch(e2e().url('/api/v1/deals?slug=e2e-bulkword-beta'))).status).toBe(200);
      expect(await titles(page)).toEqual(['E2E Bulkword Beta']);

      // Mark expired: the same one confirmation, one request.
      await page.getByRole('checkbox', { name: 'Select E2E Bulkword Beta' }).check();
      await page.getByRole('button', { name: 'Mark selected expired…' }).click();
      expect(await dialog.locator('li').allTextContents()).toEqual(['E2E Bulkword Beta: Live → Expired']);
      await dialog.getByRole('button', { name: 'Mark 1 expired' }).click();
      await expect.poll(() => page.locator('[data-status]').textContent()).toBe('Marked 1 deal expired.');
      expect((await getJson<{ deal: ApiDeal }>(e2e().url('/api/v1/deals?slug=e2e-bulkword-beta'))).deal.status).toBe('expired');
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
      await fetch(e2e().url('/api/v1/deals?slug=e2e-bulkword-beta'), { method: 'DELETE', headers });
    }
  });
});
