/**
 * axe-core (WCAG 2.0/2.1 A and AA) on every page type, in light and dark colour schemes. The scans
 * run a few at a time (each page in its own context) to keep the suite short.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, test } from 'vitest';
import { openPage } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { PAGE_TYPES } from '../helpers/pages.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const cases = PAGE_TYPES.flatMap((type) => (['light', 'dark'] as const).map((scheme) => ({ type, scheme })));

export function accessibilitySuite(): void {
  describe.concurrent('accessibility (axe, WCAG 2.1 AA)', () => {
    test.each(cases)('$type.name in $scheme mode has no violations', async ({ type, scheme }) => {
      const path = await type.path();
      const { page, close } = await openPage(e2e().browser, { colorScheme: scheme });
      try {
        const response = await page.goto(e2e().url(path));
        expect(response?.status()).toBe(type.status);
        // `resultTypes` only trims the detail kept for passing rules (set before withTags, which it would replace).
        const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(TAGS).analyze();
        const violations = results.violations.map((v) => ({
          page: path,
          scheme,
          rule: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html, summary: n.failureSummary })),
        }));
        expect(violations).toEqual([]);
        // The scan really ran (axe was injected despite the Content-Security-Policy).
        expect(results.passes.length).toBeGreaterThan(0);
      } finally {
        await close();
      }
    });
  });
}
