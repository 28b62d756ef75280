/**
 * Crawler-facing head tags on every page type (canonical URL, og:title), every page type loading
 * cleanly (no console errors, e.g. Content-Security-Policy refusals, no failed requests), and layout
 * stability (Cumulative Layout Shift) of /deals/ while it loads.
 */
import { describe, expect, test } from 'vitest';
import { openPage } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { PAGE_TYPES, siteBaseUrl } from '../helpers/pages.ts';

export function headAndLayoutSuite(): void {
  describe.concurrent('head tags', () => {
    test.each(PAGE_TYPES)('$name has one canonical link and og:title', async (type) => {
      const path = await type.path();
      const base = siteBaseUrl();
      const { page, close } = await openPage(e2e().browser, { javaScriptEnabled: false });
      try {
        const response = await page.goto(e2e().url(path));
        expect(response?.status()).toBe(type.status);
        const head = await page.evaluate(() => ({
          canonical: [...document.querySelectorAll('link[rel="canonical"]')].map((l) => l.getAttribute('href')),
          ogTitle: [...document.querySelectorAll('meta[property="og:title"]')].map((m) => m.getAttribute('content')),
          ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content') ?? null,
          title: document.title,
        }));
        expect(head.canonical.length).toBe(1);
        const canonical = head.canonical[0] ?? '';
        if (type.canonicalPath) expect(canonical).toBe(new URL(type.canonicalPath(path), base).href);
        else expect(new URL(canonical).origin).toBe(new URL(base).origin);
        expect(head.ogUrl).toBe(canonical);
        expect(head.title.trim()).not.toBe('');
        expect(head.ogTitle).toEqual([head.title]);
      } finally {
        await close();
      }
    });
  });

  describe.concurrent('page health', () => {
    test.each(PAGE_TYPES)('$name loads with no console error, script error or failed request', async (type) => {
      const path = await type.path();
      const { page, pageErrors, close } = await openPage(e2e().browser);
      try {
        const problems: string[] = [];
        const document = e2e().url(path);
        page.on('console', (message) => {
          // The 404 page's own status is expected; anything else logged as an error is not.
          if (message.type() === 'error' && !(type.status !== 200 && message.location().url === document)) problems.push(`console: ${message.text()}`);
        });
        page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
        page.on('response', (response) => {
          if (response.status() >= 400 && response.url() !== document) problems.push(`${response.status()}: ${response.url()}`);
        });
        const response = await page.goto(document, { waitUntil: 'load' });
        expect(response?.status()).toBe(type.status);
        await page.waitForTimeout(200);
        expect({ problems, pageErrors }).toEqual({ problems: [], pageErrors: [] });
      } finally {
        await close();
      }
    });
  });

  describe('layout stability', () => {
    const viewports = [
      { name: 'desktop', viewport: { width: 1280, height: 800 } },
      { name: 'phone', viewport: { width: 390, height: 844 } },
    ];
    test.each(viewports)('/deals/ loads without layout shift on $name (CLS < 0.01)', async ({ viewport }) => {
      const { page, close } = await openPage(e2e().browser, { viewport });
      try {
        await page.addInitScript(() => {
          const w = window as unknown as { e2eShifts: { value: number; sources: string[] }[] };
          w.e2eShifts = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] }[]) {
              if (entry.hadRecentInput) continue;
              w.e2eShifts.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => (s.node instanceof Element ? s.node.outerHTML.slice(0, 120) : String(s.node?.nodeName))) });
            }
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(e2e().url('/deals/'), { waitUntil: 'load' });
        // Let late work (fonts, scripts, images) settle, then read what the observer saw.
        await page.waitForTimeout(1_000);
        const shifts = await page.evaluate(() => (window as unknown as { e2eShifts: { value: number; sources: string[] }[] }).e2eShifts);
        const total = shifts.reduce((sum, s) => sum + s.value, 0);
        expect({ total: total < 0.01, shifts }).toEqual({ total: true, shifts: total < 0.01 ? shifts : [] });
      } finally {
        await close();
      }
    });
  });
}
