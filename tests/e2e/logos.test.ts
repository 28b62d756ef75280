/**
 * Logos in the browser (issue 15): every deal and startup card on the home page, /deals/,
 * /programs/ and /startups/, the record pages and a card drawn by instant search show their
 * record's image from the site itself, loaded, or its monogram tile; no request leaves the
 * origin. The starter content's committed logos arrive rasterised; every other record shows
 * its monogram, drawn as text (no image).
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openPage } from './helpers/browser.ts';
import { e2e, setUp, tearDown } from './helpers/context.ts';

beforeAll(() => setUp());
afterAll(tearDown);

interface ShownLogo {
  href: string;
  /** An `<img>` the build made, or a monogram tile. */
  kind: 'image' | 'monogram' | 'none';
  src: string;
  /** For an image: drawn with at least two colours (a blank or broken image has one). For a monogram: initials drawn on a coloured tile. */
  drawn: boolean;
  width: number;
  height: number;
}

/** The logo of every deal or startup card on the page, images loaded (lazy ones made eager) and drawn into a canvas. */
function cardLogos(page: Page, selector = 'li.card'): Promise<ShownLogo[]> {
  return page.locator(selector).evaluateAll(async (cards) => {
    const records = cards.filter((card) => card.querySelector(':is(h2, h3) a[href^="/deals/"], :is(h2, h3) a[href^="/startups/"]'));
    return Promise.all(
      records.map(async (card): Promise<ShownLogo> => {
        const logo = card.querySelector<HTMLElement>(':is(h2, h3) > .logo');
        const href = card.querySelector(':is(h2, h3) a')?.getAttribute('href') ?? '';
        if (!logo) return { href, kind: 'none', src: '', drawn: false, width: 0, height: 0 };
        const box = () => logo.getBoundingClientRect();
        if (logo instanceof HTMLImageElement) {
          logo.loading = 'eager';
          await logo.decode().catch(() => undefined);
          const canvas = document.createElement('canvas');
          canvas.width = canvas.height = 48;
          const context = canvas.getContext('2d');
          context?.drawImage(logo, 0, 0, 48, 48);
          const pixels = context?.getImageData(0, 0, 48, 48).data ?? new Uint8ClampedArray();
          const colours = new Set<string>();
          for (let i = 0; i < pixels.length; i += 4) colours.add(`${pixels[i]},${pixels[i + 1]},${pixels[i + 2]},${pixels[i + 3]}`);
          return { href, kind: 'image', src: logo.getAttribute('src') ?? '', drawn: logo.naturalWidth > 0 && colours.size >= 2, width: box().width, height: box().height };
        }
        const initials = getComputedStyle(logo, '::before').content;
        const background = getComputedStyle(logo).backgroundColor;
        const drawn =
          logo.classList.contains('monogram') &&
          logo.getAttribute('aria-hidden') === 'true' &&
          /^"\S{1,2}"$/u.test(initials) &&
          initials === `"${logo.dataset.initials}"` &&
          background !== 'rgba(0, 0, 0, 0)';
        return { href, kind: 'monogram', src: '', drawn, width: box().width, height: box().height };
      }),
    );
  });
}

/** The image path a card's link implies: `/startups/<slug>/` → `/logos/startups/<slug>.webp`. */
const expectedSrc = (href: string) => href.replace(/^\/(deals|startups)\/([a-z0-9-]+)\/$/, '/logos/$1/$2.webp');

/** Which records have an image, as the site publishes it. */
async function logoIndex(): Promise<{ deals: string[]; startups: string[] }> {
  return (await (await fetch(e2e().url('/logos/index.json'))).json()) as { deals: string[]; startups: string[] };
}

/** A card's logo is right: an image exactly for the records the index lists (loaded, drawn), a monogram tile for the rest; 48 px square. */
function wrongLogos(logos: ShownLogo[], index: { deals: string[]; startups: string[] }): ShownLogo[] {
  const withImage = new Set([...index.deals.map((s) => `/deals/${s}/`), ...index.startups.map((s) => `/startups/${s}/`)]);
  return logos.filter((l) => l.kind !== (withImage.has(l.href) ? 'image' : 'monogram') || (l.kind === 'image' && l.src !== expectedSrc(l.href)) || !l.drawn || l.width !== 48 || l.height !== 48);
}

/** Requests that leave the site's origin. */
function watchOutside(page: Page): string[] {
  const outside: string[] = [];
  const origin = new URL(e2e().site.url).origin;
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== origin) outside.push(request.url());
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
      expect(wrongLogos(logos, await logoIndex())).toEqual([]);
      if (path === '/startups/') expect(logos.filter((l) => l.kind === 'image').length).toBeGreaterThan(0);
      expect({ outside, pageErrors }).toEqual({ outside: [], pageErrors: [] });
    } finally {
      await close();
    }
  });

  test('a committed logo is served rasterised and listed; a record without one has no image to ask for', async () => {
    const committed = await fetch(e2e().url('/logos/startups/cronwatch.webp'));
    expect(committed.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await committed.arrayBuffer())).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 96, height: 96 });
    const index = await logoIndex();
    expect(index.startups).toEqual(expect.arrayContaining(['cronwatch', 'pocketpantry', 'tidepool-candles']));
    expect(index.deals).not.toContain('aws-activate-founders');
    expect((await fetch(e2e().url('/logos/deals/aws-activate-founders.webp'))).status).toBe(404);
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
      expect(wrongLogos(logos, await logoIndex())).toEqual([]);
      expect({ outside, pageErrors }).toEqual({ outside: [], pageErrors: [] });
    } finally {
      await close();
    }
  });
});

describe('logos on record pages', () => {
  test('a startup with a committed logo shows it beside the title, larger, loaded at once', async () => {
    const { page, close } = await openPage(e2e().browser);
    try {
      const outside = watchOutside(page);
      await page.goto(e2e().url('/startups/cronwatch/'), { waitUntil: 'load' });
      const logo = await page
        .locator('h1 > img.logo')
        .evaluate((img: HTMLImageElement) => ({ src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0, width: img.getBoundingClientRect().width, alt: img.alt }));
      expect(logo).toEqual({ src: '/logos/startups/cronwatch.webp', loaded: true, width: 64, alt: '' });
      expect(outside).toEqual([]);
    } finally {
      await close();
    }
  });

  test("a deal without one shows its monogram beside the title, larger; the heading's text is the title alone", async () => {
    const { page, close } = await openPage(e2e().browser);
    try {
      const outside = watchOutside(page);
      await page.goto(e2e().url('/deals/aws-activate-founders/'), { waitUntil: 'load' });
      const tile = await page
        .locator('h1 > .logo.monogram')
        .evaluate((el: HTMLElement) => ({ initials: getComputedStyle(el, '::before').content, width: el.getBoundingClientRect().width, hidden: el.getAttribute('aria-hidden') }));
      expect(tile).toEqual({ initials: '"AW"', width: 64, hidden: 'true' });
      const heading = page.getByRole('heading', { level: 1 });
      const { deal } = (await (await fetch(e2e().url('/api/v1/deals?slug=aws-activate-founders'))).json()) as { deal: { title: string } };
      expect((await heading.textContent())?.trim()).toBe(deal.title);
      expect(outside).toEqual([]);
    } finally {
      await close();
    }
  });
});
