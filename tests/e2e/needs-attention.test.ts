/**
 * The admin's "Needs attention" page (issue 20, docs/freshness.md), in the browser, over the
 * real server: records planted by a hand commit in the content repository (an expired deal
 * still open, a stale verified deal, a deal whose application page is gone) and a real link
 * check (`npm run verify-links` against a local server) show up in their queues, and the
 * one-click fixes are admin commits. Its own site and browser. With E2E_SHOTS=<folder>,
 * screenshots at phone and desktop widths, light and dark.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, openPage, PHONE, shoot } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';
import { scan } from './suites/accessibility.ts';
import { addAccount, signInPage } from './suites/admin.ts';
import { plantLinkReport } from './helpers/link-check.ts';

const ADMIN = { email: 'e2e-attention@example.com', password: 'e2e-attention-password' };
const TODAY = new Date().toISOString().slice(0, 10);

const PLANTED = {
  'planted-expired': { title: 'Planted Expired Offer', fields: "expiryDate: '2025-06-30'" },
  'planted-stale': { title: 'Planted Stale Offer', fields: "verified: true\nlastVerified: '2025-01-15'\nsourceUrl: https://stale.planted.example/terms" },
  'planted-broken': { title: 'Planted Broken Offer', fields: `lastVerified: '${TODAY}'` },
} as const;

beforeAll(async () => {
  await setUp();
  addAccount(ADMIN.email, '--password', ADMIN.password);
  const { repo } = e2e().site;
  for (const [slug, { title, fields }] of Object.entries(PLANTED)) {
    const text = `---\nid: d-${slug.replace('planted-', 'pl')}\ntitle: ${title}\nprovider: Planted\ncategory: cloud-credits\nstatus: active\napplicationUrl: https://${slug}.planted.example/offer\n${fields}\n---\nPlanted by the e2e test.\n`;
    writeFileSync(join(repo, 'content', 'deals', `${slug}.md`), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'Plant records that need attention');
  e2e().site.refresh();
  for (let tries = 0; (await fetch(e2e().url('/api/v1/deals?slug=planted-broken'))).status !== 200; tries++) {
    if (tries === 150) throw new Error('the server did not pick up the hand commit');
    await new Promise((done) => setTimeout(done, 100));
  }
  // The link check, for real: every planted host is answered by a local server; the broken one with 404.
  await plantLinkReport(join(repo, 'content'), e2e().site.dataDir, { 'planted-broken.planted.example': 'gone-404' });
});
afterAll(tearDown);

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Hand Editor', '-c', 'user.email=hand@example.com', ...args], { cwd: e2e().site.repo, encoding: 'utf8' });
}

const fileOf = (slug: string) => readFileSync(join(e2e().site.repo, 'content', 'deals', `${slug}.md`), 'utf8');
const rowOf = (page: Page, queue: string, title: string) => page.locator(`[data-queue="${queue}"] tr`, { hasText: title });

async function attentionPage(size = DESKTOP): Promise<Awaited<ReturnType<typeof openPage>>> {
  const opened = await openPage(e2e().browser, { viewport: size });
  await signInPage(opened.page, ADMIN);
  await opened.page.goto(e2e().url('/admin/attention/'));
  await opened.page.locator('[data-queue="stale"] tr').first().waitFor();
  return opened;
}

describe('needs attention', () => {
  test('planted expired, stale and broken records are each in their queue, with why and where to check', async () => {
    const { page, pageErrors, close } = await attentionPage();
    try {
      expect(await rowOf(page, 'expired', PLANTED['planted-expired'].title).textContent()).toContain('Expired on 30 June 2025');
      const stale = rowOf(page, 'stale', PLANTED['planted-stale'].title);
      expect(await stale.textContent()).toContain('Last checked 15 January 2025');
      expect(await stale.getByRole('link', { name: 'check the source' }).getAttribute('href')).toBe('https://stale.planted.example/terms');
      expect(await rowOf(page, 'links', PLANTED['planted-broken'].title).textContent()).toContain('Application link: gone. 404 Not Found');
      // Only the planted link is broken: the report's other addresses answered 200.
      expect(await page.locator('[data-queue="links"] tr').count()).toBe(1);
      expect(await page.locator('[data-link-check]').textContent()).toMatch(/^Links last checked \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ addresses\)\.$/);
      // Fresh records are in no queue.
      expect(await page.locator('[data-queue] tr', { hasText: PLANTED['planted-broken'].title }).count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      expect([...(await scan(page, 'needs attention', 'light'))]).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect([...(await scan(page, 'needs attention', 'dark'))]).toEqual([]);
      await shoot(page, 'needs-attention');
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  test('"Mark expired" and "Mark verified today" are each one commit by the admin, and the rows leave their queues', async () => {
    const { page, pageErrors, close } = await attentionPage(PHONE);
    try {
      const before = git('rev-parse', 'HEAD').trim();
      await rowOf(page, 'expired', PLANTED['planted-expired'].title).getByRole('button', { name: 'Mark expired' }).click();
      await expect.poll(() => page.locator('[data-status]').textContent()).toBe('Planted Expired Offer: marked expired.');
      await expect.poll(() => rowOf(page, 'expired', PLANTED['planted-expired'].title).count()).toBe(0);
      expect(fileOf('planted-expired')).toMatch(/^status: expired$/m);

      await rowOf(page, 'stale', PLANTED['planted-stale'].title).getByRole('button', { name: 'Mark verified today' }).click();
      await expect.poll(() => rowOf(page, 'stale', PLANTED['planted-stale'].title).count()).toBe(0);
      expect(fileOf('planted-stale')).toContain(`lastVerified: '${TODAY}'`);
      expect(fileOf('planted-stale')).toMatch(/^verified: true$/m);

      // Two commits, each by the signed-in admin, each touching its one file.
      const log = git('log', '--format=%ae', '--name-only', `${before}..HEAD`).trim().split(/\n+/);
      expect(log).toEqual([ADMIN.email, 'content/deals/planted-stale.md', ADMIN.email, 'content/deals/planted-expired.md']);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
