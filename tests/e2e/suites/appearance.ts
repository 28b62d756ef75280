/** Light and dark colour schemes follow the system setting. */
import { describe, expect, test } from 'vitest';
import { openPage, relativeLuminance } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';

const colours = () =>
  ({
    background: getComputedStyle(document.body).backgroundColor,
    text: getComputedStyle(document.body).color,
  }) as const;

export function appearanceSuite(): void {
  describe('colour scheme', () => {
    test.each(['/', '/deals/', '/submit/', '/startups/'])('%s has a dark background in dark mode and a light one in light mode', async (path) => {
      const { page, close } = await openPage(e2e().browser);
      try {
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.goto(e2e().url(path));
        const dark = await page.evaluate(colours);
        expect({ path, background: relativeLuminance(dark.background) < 0.05, text: relativeLuminance(dark.text) > 0.6 }).toEqual({ path, background: true, text: true });

        // Switching the system setting on the open page re-colours it.
        await page.emulateMedia({ colorScheme: 'light' });
        const light = await page.evaluate(colours);
        expect({ path, background: relativeLuminance(light.background) > 0.9, text: relativeLuminance(light.text) < 0.05 }).toEqual({ path, background: true, text: true });

        // And a page loaded in light mode starts light.
        await page.goto(e2e().url(path));
        expect(relativeLuminance((await page.evaluate(colours)).background)).toBeGreaterThan(0.9);
      } finally {
        await close();
      }
    });
  });
}
