/**
 * Logos in the browser (issue 15): every deal and startup card on the home page, /deals/,
 * /programs/ and /startups/, the record pages and a card drawn by instant search show their
 * record's image from the site itself, loaded; no request leaves the origin. The starter
 * content's committed logos arrive rasterised; every other record shows its monogram.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPage } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';

beforeAll(setUp);
afterAll(tearDown);

interface ShownLogo {
  href: string;
  src: string;
  naturalWidth: number;
  width: number;
  height: number;
  /** Distinct colours drawn: a blank or broken image has one. */
  colours: number;
}

/** The logo of every deal or startup card on the page, each loaded (lazy ones made eager) and drawn into a canvas. */
function cardLogos(page: Page, selector = 'li.card'): Promise<ShownLogo[]> {
  return page.locator(selector).evaluateAll(async (cards) => {
    const records = cards.filter((card) => card.querySelector(':is(h2, h3) a[href^="/deals/"], :is(h2, h3) a[href^="/startups/"]'));
    return Promise.all(
      records.map(async (card) => {
        const img = card.querySelector<HTMLImageElement>(':is(h2, h3) > img.logo');
        const href = card.querySelector(':is(h2, h3) a')?.getAttribute('href') ?? '';
        if (!img) return { href, src: '', naturalWidth: 0, width: 0, height: 0, colours: 0 };
        img.loading = 'eager';
        await img.decode().catch(() => undefined);
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 48;
        const context = canvas.getContext('2d');
        context?.drawImage(img, 0, 0, 48, 48);
        const pixels = context?.getImageData(0, 0, 48, 48).data ?? new Uint8ClampedArray();
        const colours = new Set<string>();
        for (let i = 0; i < pixels.length; i += 4) colours.add(`${pixels[i]},${pixels[i + 1]},${pixels[i + 2]},${pixels[i + 3]}`);
        const box = img.getBoundingClientRect();
        return { href, src: img.getAttribute('src') ?? '', naturalWidth: img.naturalWidth, width: box.width, height: box.height, colours: colours.size };
      }),
    );
  });
}

/** The logo path a card's link implies: `/deals/<slug>/` → `/logos/deals/<slug>.svg`. */
const expectedSrc = (href: string) => href.replace(/^\/(deals|startups)\/([a-z0-9-]+)\/$/, '/logos/$1/$2.svg');

/** Requests that leave the site's origin (data: URLs are the page's own bytes). */
function watchOutside(page: Page): string[] {
  const outside: string[] = [];
  const origin = new URL(e2e().site.url).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && new URL(url).origin !== origin) outside.push(url);
  });
  return outside;
}

describe('logos on cards', () => {
  test.each(['/', '/deals/', '/programs/', '/startups/'])('every deal and startup card on %s shows its own logo from the site, loaded and drawn', async (path) => {
    const { page, pageErrors, close } = await openPage(e2e().browser);
    try {
      const outside = watchOutside(page);
      await page.goto(e2e().url(path), { waitUntil: 'load' });
      const logos = await cardLogos(page);
      expect(logos.length).toBeGreaterThan(path === '/' ? 2 : 10);
      const wrong = logos.filter((l) => l.src !== expectedSrc(l.href) || l.naturalWidth === 0 || l.width !== 48 || l.height !== 48 || l.colours < 2);
      expect(wrong).toEqual([]);
      expect({ outside, pageErrors }).toEqual({ outside: [], pageErrors: [] });
    } finally {
      await close();
    }
  });

  test('a committed logo is served rasterised; a record without one shows its monogram', async () => {
    const committed = await (await fetch(e2e().url('/logos/startups/cronwatch.svg'))).text();
    expect(committed).toMatch(/^<svg [^>]+><image width="96" height="96" href="data:image\/webp;base64,[A-Za-z0-9+/=]+"\/><\/svg>$/);
    const monogram = await fetch(e2e().url('/logos/deals/aws-activate-founders.svg'));
    expect(monogram.headers.get('content-type')).toBe('image/svg+xml');
    expect(await monogram.text()).toContain('>AW</text>');
  });

  test('a card drawn by instant search shows its logo too', async () => {
    const { page, pageErrors, close } = await openPage(e2e().browser);
    try {
      const outside = watchOutside(page);
      await page.goto(e2e().url('/deals/'));
      const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/deals' && new URL(r.url()).searchParams.get('search') === 'cloud');
      await page.getByRole('searchbox', { name: 'Search' }).fill('cloud');
      await answer;
      await expect.poll(() => page.evaluate(() => new URL(location.href).pathname)).toBe('/deals/search/');
      const logos = await cardLogos(page, '[data-results] > li.card');
      expect(logos.length).toBeGreaterThan(0);
      expect(logos.filter((l) => l.src !== expectedSrc(l.href) || l.naturalWidth === 0 || l.width !== 48 || l.colours < 2)).toEqual([]);
      expect({ outside, pageErrors }).toEqual({ outside: [], pageErrors: [] });
    } finally {
      await close();
    }
  });
});

describe('logos on record pages', () => {
  test.each(['/deals/aws-activate-founders/', '/startups/cronwatch/'])('%s shows its logo beside the title, larger, loaded at once', async (path) => {
    const { page, close } = await openPage(e2e().browser);
    try {
      const outside = watchOutside(page);
      await page.goto(e2e().url(path), { waitUntil: 'load' });
      const logo = await page.locator('h1 > img.logo').evaluate((img: HTMLImageElement) => ({ src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0, width: img.getBoundingClientRect().width, alt: img.alt }));
      expect(logo).toEqual({ src: expectedSrc(path), loaded: true, width: 64, alt: '' });
      // The heading's name is the title alone (the image is decorative).
      expect((await page.getByRole('heading', { level: 1 }).textContent())?.trim()).not.toBe('');
      expect(outside).toEqual([]);
    } finally {
      await close();
    }
  });
});
