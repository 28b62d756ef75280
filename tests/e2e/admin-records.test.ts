/**
 * History, restore and startups in the admin, in the browser (issue 16, items 3 and 4): a deal
 * edited twice in the admin and once by hand in git lists those changes (who, via, the fields
 * old → new), and restoring a version puts it back as a new commit, in the form and the API; a
 * restore over someone else's change is refused and said. A startup is refused with every problem
 * shown, saved as a draft (not public), published, edited (in its history), deleted. Axe and
 * sideways scrolling at 390 px on the pages. With E2E_SHOTS=<folder>, screenshots of them too.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, openPage, PHONE, shoot, type OpenPage } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { scan } from './suites/accessibility.ts';
import { addAccount, signInCookie, signInPage } from './suites/admin.ts';

const ADMIN = { email: 'e2e-records@example.com', password: 'e2e-records-password' };

beforeAll(async () => {
  await setUp();
  addAccount(ADMIN.email, '--password', ADMIN.password);
});
afterAll(tearDown);

async function adminPage(size = DESKTOP): Promise<OpenPage> {
  const opened = await openPage(e2e().browser, { viewport: size });
  await signInPage(opened.page, ADMIN);
  return opened;
}

const overflows = (page: Page): Promise<boolean> => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
const git = (...args: string[]): string => execFileSync('git', args, { cwd: e2e().site.repo, encoding: 'utf8' });
const status = (page: Page) => page.locator('[data-status]').textContent();

/** The JSON of a GET, or the status when it is not 200. */
async function read<T>(path: string, cookie?: string): Promise<T | number> {
  const response = await fetch(e2e().url(path), { headers: cookie ? { Cookie: cookie } : {} });
  return response.ok ? ((await response.json()) as T) : response.status;
}

/** Axe on `page` in the light and the dark scheme: the violations of both. */
async function scanBoth(page: Page, label: string): Promise<unknown[]> {
  const light = await scan(page, label, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await scan(page, label, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  return [...light, ...dark];
}

describe('deal history', () => {
  test('two admin edits and a hand commit listed with their fields; a restore is a new commit; a stale restore is refused', async () => {
    const cookie = await signInCookie(ADMIN);
    const created = await fetch(e2e().url('/api/v1/deals'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: e2e().url(''), Cookie: cookie },
      body: JSON.stringify({ title: 'E2E Ledger credits', provider: 'Ledger', category: 'cloud-credits', applicationUrl: 'https://ledger.example/apply', value: '$500 in credits' }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const slug = ((await created.json()) as { deal: { slug: string } }).deal.slug;
    const { page, pageErrors, close } = await adminPage();
    try {
      await page.goto(e2e().url(`/admin/deal/?slug=${slug}`));
      await expect.poll(() => page.locator('#value').inputValue()).toBe('$500 in credits');
      const versions = page.locator('[data-history] .version');
      await expect.poll(() => versions.count()).toBe(1);

      await page.locator('#value').fill('$1,000 in credits');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => status(page)).toContain('Saved "E2E Ledger credits"');
      // The form is read back after a save (the history with it): wait for that before typing again.
      await expect.poll(() => versions.count()).toBe(2);
      const long = `Terms. ${'Credits for the first year of use, renewable once on request. '.repeat(5)}`.trim();
      await page.locator('#value').fill('$2,000 in credits');
      await page.locator('#description').fill(long);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => versions.count()).toBe(3);

      // Newest first: the second edit, the first, the creation; each through the admin, by the admin.
      const second = versions.nth(0);
      expect(await second.locator('.version-head').textContent()).toContain(' · via admin · Edited');
      expect(await second.locator('.via').textContent()).toBe('via admin');
      const valueChange = (version: typeof second) => version.locator('.change', { has: page.locator('dt', { hasText: /^Value$/ }) });
      expect(await valueChange(second).locator('del').textContent()).toBe('$1,000 in credits');
      expect(await valueChange(second).locator('ins').textContent()).toBe('$2,000 in credits');
      expect(await valueChange(versions.nth(1)).locator('del').textContent()).toBe('$500 in credits');
      expect(await versions.nth(1).locator('.via').textContent()).toBe('via admin');
      // A long value is cut short; "Show all" shows the whole.
      const description = second.locator('.change', { has: page.locator('dt', { hasText: 'Description' }) }).locator('ins');
      expect((await description.locator('summary').textContent())?.length).toBeLessThan(long.length);
      expect(await description.locator('.full').isVisible()).toBe(false);
      await description.getByText('Show all').click();
      expect(await description.locator('.full').textContent()).toBe(long);
      expect(await description.locator('.full').isVisible()).toBe(true);
      // The newest version is the current one: nothing to restore there.
      expect(await second.getByRole('button', { name: 'Restore this version' }).count()).toBe(0);

      // A hand commit in the content repository, picked up by the server: listed as by hand in git.
      const file = join(e2e().site.repo, 'content', 'deals', `${slug}.md`);
      writeFileSync(file, readFileSync(file, 'utf8').replace('title: E2E Ledger credits', 'title: E2E Ledger cloud credits'));
      git('-c', 'user.name=Hand Editor', '-c', 'user.email=hand@example.com', 'commit', '-q', '-m', 'Retitle by hand', '--', `content/deals/${slug}.md`);
      e2e().site.refresh();
      await expect
        .poll(async () => ((await read<{ deal: { title: string } }>(`/api/v1/deals?slug=${slug}`)) as { deal: { title: string } }).deal?.title, { timeout: 10_000 })
        .toBe('E2E Ledger cloud credits');
      await page.reload();
      await expect.poll(() => versions.count()).toBe(4);
      const hand = versions.nth(0);
      expect(await hand.locator('.via').textContent()).toBe('by hand in git');
      expect(await hand.locator('.version-head').textContent()).toContain('Hand Editor');
      expect(await hand.locator('.version-message').textContent()).toBe('Retitle by hand');
      expect(await hand.locator('.change dt').allTextContents()).toEqual(['Title']);
      expect(await page.locator('[data-history]').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect(await scanBoth(page, 'deal history')).toEqual([]);
      await shoot(page, 'deal-history', '[data-history]');

      // Restore the first edit ($1,000, the old title): the form and the API show it, as a new commit.
      const before = git('rev-parse', 'HEAD').trim();
      page.once('dialog', (dialog) => void dialog.accept());
      await versions.nth(2).getByRole('button', { name: 'Restore this version' }).click();
      await expect.poll(() => status(page)).toContain('Restored the version of');
      expect(await page.locator('#value').inputValue()).toBe('$1,000 in credits');
      expect(await page.locator('#title').inputValue()).toBe('E2E Ledger credits');
      const restored = (await read<{ deal: { value: string; title: string } }>(`/api/v1/deals?slug=${slug}`)) as { deal: { value: string; title: string } };
      expect(restored.deal).toMatchObject({ value: '$1,000 in credits', title: 'E2E Ledger credits' });
      expect(git('rev-parse', 'HEAD~1').trim()).toBe(before);
      expect(git('log', '-1', '--format=%ae|%s').trim()).toMatch(new RegExp(`^${ADMIN.email}\\|Revert deal ${slug} to `));
      await expect.poll(() => versions.count()).toBe(5);
      expect(await versions.nth(0).locator('.via').textContent()).toBe('via admin');

      // Someone else saves meanwhile: a restore from this page is refused, and says why.
      const { etag } = { etag: (await fetch(e2e().url(`/api/v1/deals?slug=${slug}`))).headers.get('etag') ?? '' };
      const edited = await fetch(e2e().url('/api/v1/deals'), {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Origin: e2e().url(''), Cookie: cookie, 'If-Match': etag },
        body: JSON.stringify({ slug, value: '$3,000 in credits' }),
      });
      expect(edited.status, await edited.clone().text()).toBe(200);
      page.once('dialog', (dialog) => void dialog.accept());
      await versions.nth(1).getByRole('button', { name: 'Restore this version' }).click();
      await expect.poll(() => status(page)).toContain('Someone else changed this deal');
      expect(await page.locator('[data-status]').getAttribute('data-kind')).toBe('error');

      // Pages of history: two versions a page here (its requests narrowed to `limit=2`), six in all.
      expect(await page.locator('[data-history-more]').isHidden()).toBe(true);
      await page.route('**/api/v1/admin/deals/history?*', (route) => void route.continue({ url: `${route.request().url()}&limit=2` }));
      await page.reload();
      await expect.poll(() => versions.count()).toBe(2);
      const older = page.getByRole('button', { name: 'Older changes' });
      await older.click();
      await expect.poll(() => versions.count()).toBe(4);
      await older.click();
      await expect.poll(() => versions.count()).toBe(6);
      expect(await older.isHidden()).toBe(true);
      expect(await versions.nth(5).locator('.version-head').textContent()).toContain('Created');

      await page.setViewportSize(PHONE);
      expect(await overflows(page)).toBe(false);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('startups in the admin', () => {
  test('every problem at once; draft, publish, edit (in its history), delete; the public API follows', async () => {
    const publicSlugs = async () => ((await read<{ startups: Array<{ slug: string }> }>('/api/v1/startups')) as { startups: Array<{ slug: string }> }).startups.map((s) => s.slug);
    const { page, pageErrors, close } = await adminPage(PHONE);
    try {
      await page.goto(e2e().url('/admin/'));
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Startups' }).click();
      await page.waitForURL(/\/admin\/startups\/$/);
      await expect.poll(() => page.locator('[data-rows] tr').count()).toBeGreaterThan(5);
      expect(await overflows(page)).toBe(false);
      expect(await scanBoth(page, 'startup list')).toEqual([]);
      await shoot(page, 'startup-list');

      await page.getByRole('link', { name: 'New startup' }).click();
      await page.waitForURL(/\/admin\/startup\/$/);
      expect(await page.locator('form[data-startup] fieldset > legend').allTextContents()).toEqual(['Basics', 'The sale', 'Links', 'Placement']);
      expect(await page.locator('#summary-help').textContent()).toContain('One line saying what the business is');
      // No name, a country that is no code, links that are not links.
      await page.locator('#country').fill('usa');
      await page.locator('#listingUrl').fill('not a link');
      await page.locator('#website').fill('ftp://harbor.example');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await expect.poll(() => page.locator('[data-error-summary]').isVisible()).toBe(true);
      const invalid = await page.locator('form [aria-invalid=true]').evaluateAll((els) => els.map((e) => e.id));
      expect(invalid.sort()).toEqual(['country', 'listingUrl', 'name', 'website']);
      for (const id of invalid) expect(await page.locator(`#${id}-error`).textContent()).not.toBe('');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('name');
      expect(await overflows(page)).toBe(false);
      expect(await scan(page, 'startup form with problems', 'light')).toEqual([]);
      await shoot(page, 'startup-form-errors');

      // Fixed and saved as a draft: in the admin, not public.
      await page.locator('#name').fill('E2E Harbor Analytics');
      await page.locator('#country').fill('US');
      await page.locator('#listingUrl').fill('https://market.example/harbor');
      await page.locator('#website').fill('');
      await page.locator('#askingPrice').fill('250000');
      await page.locator('#askingPriceDisplay').fill('$250k');
      await page.getByRole('button', { name: 'Save as draft' }).click();
      await expect.poll(() => status(page)).toContain('Saved "E2E Harbor Analytics" as a draft');
      expect(page.url()).toMatch(/\?slug=e2e-harbor-analytics$/);
      expect(await publicSlugs()).not.toContain('e2e-harbor-analytics');
      expect(await page.locator('h1').textContent()).toBe('Edit: E2E Harbor Analytics (draft)');

      // Published: public.
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await expect.poll(() => status(page)).toContain('It is live now');
      expect(await publicSlugs()).toContain('e2e-harbor-analytics');
      const published = (await read<{ startups: Array<{ slug: string; askingPrice?: number; forSale: boolean }> }>('/api/v1/startups')) as {
        startups: Array<{ slug: string; askingPrice?: number; forSale: boolean }>;
      };
      // A new listing is for sale (the box starts ticked); the price typed as text is a number.
      expect(published.startups.find((s) => s.slug === 'e2e-harbor-analytics')).toMatchObject({ askingPrice: 250000, forSale: true });

      // Edited: the change is in its history, old → new.
      await page.locator('#summary').fill('Analytics for small harbours.');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const versions = page.locator('[data-history] .version');
      await expect.poll(() => versions.count()).toBe(3);
      const summary = versions.nth(0).locator('.change', { has: page.locator('dt', { hasText: /^Summary$/ }) });
      expect(await summary.locator('del').textContent()).toBe('(none)');
      expect(await summary.locator('ins').textContent()).toBe('Analytics for small harbours.');
      expect(await versions.nth(0).locator('.via').textContent()).toBe('via admin');
      expect(await overflows(page)).toBe(false);
      expect(await scanBoth(page, 'startup form with history')).toEqual([]);
      await shoot(page, 'startup-form');
      expect(await page.getByRole('link', { name: 'Preview the saved listing' }).getAttribute('href')).toBe('/api/v1/admin/preview?startup=e2e-harbor-analytics');

      // The list finds it; deleted from its page, it is gone.
      await page.goto(e2e().url('/admin/startups/?q=e2e+harbor'));
      await expect.poll(() => page.locator('[data-rows] tr').count()).toBe(1);
      await page.getByRole('link', { name: 'E2E Harbor Analytics' }).click();
      await expect.poll(() => page.locator('#name').inputValue()).toBe('E2E Harbor Analytics');
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete startup…' }).click();
      await page.waitForURL(/\/admin\/startups\/(\?deleted=.*)?$/);
      await expect.poll(() => status(page)).toBe('Deleted "E2E Harbor Analytics". Undo: restore it');
      expect(await publicSlugs()).not.toContain('e2e-harbor-analytics');
      expect(await read(`/api/v1/admin/startups?slug=e2e-harbor-analytics`, await signInCookie(ADMIN))).toBe(404);

      // Restored from its history: the deleted listing's page has no form, only its history; an earlier version comes back as a new commit.
      await page.locator('[data-status]').getByRole('link', { name: 'restore it' }).click();
      await page.waitForURL(/\/admin\/startup\/\?slug=e2e-harbor-analytics$/);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Deleted startup: e2e-harbor-analytics');
      expect(await page.locator('form[data-startup]').isVisible()).toBe(false);
      await expect.poll(() => versions.count()).toBe(4);
      expect(await versions.nth(0).locator('.version-head').textContent()).toContain('Deleted');
      expect(await versions.nth(0).getByRole('button', { name: 'Restore this version' }).count()).toBe(0);
      expect(await overflows(page)).toBe(false);
      expect(await scan(page, 'deleted startup', 'light')).toEqual([]);
      page.once('dialog', (dialog) => void dialog.accept());
      await versions.nth(1).getByRole('button', { name: 'Restore this version' }).click();
      await expect.poll(() => status(page)).toMatch(/^Restored the version of /);
      expect(await page.locator('#summary').inputValue()).toBe('Analytics for small harbours.');
      expect(await page.locator('h1').textContent()).toBe('Edit: E2E Harbor Analytics');
      expect(await publicSlugs()).toContain('e2e-harbor-analytics');
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('logo upload', () => {
  test('uploaded from the deal’s admin page: committed, on the deal’s page and in the list at once; a wrong file is refused in words; removed, the monogram is back', async () => {
    const sharp = (await import('sharp')).default;
    const cookie = await signInCookie(ADMIN);
    const created = await fetch(e2e().url('/api/v1/deals'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: e2e().url(''), Cookie: cookie },
      body: JSON.stringify({ title: 'E2E Beacon credits', provider: 'Beacon', category: 'cloud-credits', applicationUrl: 'https://beacon.example/apply', value: '$700 in credits' }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const slug = ((await created.json()) as { deal: { slug: string } }).deal.slug;
    const { page, pageErrors, close } = await adminPage(PHONE);
    try {
      await page.goto(e2e().url(`/admin/deal/?slug=${slug}`));
      const panel = page.locator('[data-logo-panel]');
      await expect.poll(() => panel.locator('[data-logo-none]').isVisible()).toBe(true);

      // A file that is no image is refused before it is sent, in words, next to the picker.
      await page.locator('[data-logo-file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await expect.poll(() => panel.locator('[data-logo-error]').textContent()).toBe('notes.txt is not a PNG, JPEG, WebP, GIF, SVG or AVIF image.');
      // Bytes that only claim to be a PNG: the server refuses them, and says why.
      await page.locator('[data-logo-file]').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') });
      await expect.poll(() => panel.locator('[data-logo-error]').textContent()).toContain('The logo is not a usable image');

      const before = git('rev-parse', 'HEAD').trim();
      const logo = await sharp({ create: { width: 240, height: 120, channels: 3, background: '#1f6feb' } })
        .png()
        .toBuffer();
      await page.locator('[data-logo-file]').setInputFiles({ name: 'beacon.png', mimeType: 'image/png', buffer: logo });
      await expect.poll(() => status(page)).toBe('Logo saved. The site shows it now.');
      await expect.poll(() => panel.locator('[data-logo-image]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
      expect(await panel.locator('[data-logo-error]').isVisible()).toBe(false);
      expect(git('log', '-1', '--format=%ae %s', `${before}..HEAD`).trim()).toBe(`${ADMIN.email} Logo for deal ${slug}`);
      expect(git('show', '--name-status', '--format=', 'HEAD').trim()).toBe(`A\tcontent/logos/deals/${slug}.webp`);
      expect(await overflows(page)).toBe(false);
      expect(await scanBoth(page, 'deal form with a logo')).toEqual([]);
      await shoot(page, 'deal-logo');

      // The site shows it at once: the deal's page and the list, rendered live with the new image.
      for (const path of [`/deals/${slug}/`, '/deals/']) {
        await page.goto(e2e().url(path));
        const image = page.locator(`img.logo[src="/logos/deals/${slug}.webp"]`).first();
        await image.scrollIntoViewIfNeeded();
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBe(96);
      }

      // Removed: the monogram is back on the deal's page.
      await page.goto(e2e().url(`/admin/deal/?slug=${slug}`));
      await expect.poll(() => panel.locator('[data-logo-image]').isVisible()).toBe(true);
      page.once('dialog', (dialog) => void dialog.accept());
      await panel.getByRole('button', { name: 'Remove the logo…' }).click();
      await expect.poll(() => status(page)).toBe('Logo removed.');
      await expect.poll(() => panel.locator('[data-logo-none]').isVisible()).toBe(true);
      await page.goto(e2e().url(`/deals/${slug}/`));
      expect(await page.locator('h1 .logo.monogram, .logo.monogram').count()).toBeGreaterThan(0);
      expect(await page.locator(`img.logo[src="/logos/deals/${slug}.webp"]`).count()).toBe(0);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
