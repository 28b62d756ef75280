/**
 * Logo images (src/logos/): monogram initials and colours, the logo markup pages and instant
 * search share, and the optimiser on real images made with sharp: type read from the bytes, a
 * small square WebP, an SVG rasterised so no script survives.
 */
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { optimiseLogo } from '../../src/logos/logo-image.ts';
import { MAX_LOGO_BYTES } from '../../src/logos/logo-upload.ts';
import { logoHtml } from '../../src/logos/logo-markup.ts';
import { initials, LOGO_SIZE, monogram, monogramColour, MONOGRAM_COLOURS, NO_INITIALS } from '../../src/logos/monogram.ts';

describe('monogram initials', () => {
  test.each([
    ['Amazon Web Services', 'AW'],
    ['Café Crème', 'CC'],
    // The same name in decomposed form (e + combining accent) gives the same initials.
    ['Cafe\u0301 Cre\u0300me', 'CC'],
    ['éclair bakery', 'ÉB'],
    ['Москва Fund', 'МF'],
    ['東京 Ventures', '東V'],
    ['Stripe', 'S'],
    ['stripe', 'S'],
    // One word with a hump gives two initials; capitals alone do not split a word.
    ['PostHog', 'PH'],
    ['OVHcloud', 'O'],
    ['NVIDIA', 'N'],
    ['500 Global', '5G'],
    // Small linking words are skipped while others remain.
    ['Google for Startups', 'GS'],
    ['The Lazy Gardener', 'LG'],
    ['The', 'T'],
    ['Y Combinator', 'YC'],
    ['  Spaced   out  ', 'SO'],
    ['Rock & Roll Ltd.', 'RR'],
    ['🚀 Rocket', 'R'],
    // "ß" upper-cased is two letters: kept as it is.
    ['ßtudio', 'ß'],
  ])('%s → %s', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });

  test.each(['🚀🔥', '!!!', '—', ''])('a name with no letter or digit (%j) gets a neutral mark', (name) => {
    expect(initials(name)).toBe(NO_INITIALS);
    expect(monogram(name)).toMatchObject({ initials: NO_INITIALS, single: true });
  });
});

describe('monogram colours', () => {
  test('every colour has a contrast of at least 4.5:1 with the white initials', () => {
    for (const colour of MONOGRAM_COLOURS) expect(contrastWithWhite(colour), colour).toBeGreaterThanOrEqual(4.5);
  });

  test('the colour follows the name, whatever its case or Unicode form, and names spread over the palette', () => {
    expect(monogramColour('Stripe')).toBe(monogramColour('STRIPE'));
    expect(monogramColour('Café Crème')).toBe(monogramColour('Cafe\u0301 Cre\u0300me'));
    expect(MONOGRAM_COLOURS).toContain(monogramColour('Москва Fund'));
    const names = ['Amazon Web Services', 'Stripe', 'Notion', 'HubSpot', 'Y Combinator', 'Techstars', 'Google Cloud', 'Heroku', 'DigitalOcean', 'Café Zürich', 'Москва Fund', 'PostHog'];
    expect(new Set(names.map(monogramColour)).size).toBeGreaterThanOrEqual(6);
  });
});

describe('logo markup', () => {
  test('a record with a built image gets it at its fixed size; lazy on cards, at once on record pages', () => {
    expect(logoHtml({ kind: 'deals', slug: 'aws-activate', name: 'Amazon Web Services', hasImage: true })).toBe(
      '<img class="logo logo-48" src="/logos/deals/aws-activate.webp" alt="" width="48" height="48" loading="lazy" decoding="async">',
    );
    expect(logoHtml({ kind: 'startups', slug: 'cronwatch', name: 'Cronwatch', hasImage: true, size: 64, eager: true })).toBe(
      '<img class="logo logo-64" src="/logos/startups/cronwatch.webp" alt="" width="64" height="64" loading="eager" decoding="async">',
    );
  });

  test('any other record: its monogram as a decorative tile whose initials CSS draws (no image, no text in the heading)', () => {
    expect(logoHtml({ kind: 'deals', slug: 'aws-activate', name: 'Amazon Web Services', hasImage: false })).toBe(
      `<span class="logo logo-48 monogram" style="background-color:${monogramColour('Amazon Web Services')}" data-initials="AW" aria-hidden="true"></span>`,
    );
    expect(logoHtml({ kind: 'startups', slug: 'stripe', name: 'Stripe', hasImage: false, size: 64 })).toContain('class="logo logo-64 monogram single"');
  });

  test('initials are letters and digits only, so markup in a name never reaches the page', () => {
    expect(logoHtml({ kind: 'deals', slug: 'x', name: '"Quoted" <Tag>', hasImage: false })).toContain('data-initials="QT"');
    expect(logoHtml({ kind: 'deals', slug: 'x', name: '& "Ünïcode"', hasImage: false })).toContain('data-initials="Ü"');
    expect(logoHtml({ kind: 'deals', slug: 'x', name: '<b>"', hasImage: false })).toMatch(/data-initials="B"/);
  });
});

describe('optimiseLogo', () => {
  test('a PNG becomes a small square WebP on white', async () => {
    const png = await sharp({ create: { width: 400, height: 120, channels: 4, background: { r: 99, g: 91, b: 255, alpha: 1 } } })
      .png()
      .toBuffer();
    const result = await optimiseLogo(png);
    if (!result.ok) throw new Error(result.detail);
    const meta = await sharp(result.webp).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: LOGO_SIZE, height: LOGO_SIZE });
    expect(result.webp.byteLength).toBeLessThan(4 * 1024);
    // Fitted inside the margin: the corner is the white tile, the middle the logo.
    const { data } = await sharp(result.webp).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].every((c) => c > 245)).toBe(true);
    const middle = (LOGO_SIZE / 2) * LOGO_SIZE * 3 + (LOGO_SIZE / 2) * 3;
    expect(Math.abs((data[middle] ?? 0) - 99)).toBeLessThan(12);
  });

  test('a finished tile (what an upload commits) is kept byte for byte: made again, it would shrink into a second margin', async () => {
    const png = await sharp({ create: { width: 300, height: 120, channels: 4, background: { r: 10, g: 20, b: 200, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const once = await optimiseLogo(png);
    if (!once.ok) throw new Error(once.detail);
    const twice = await optimiseLogo(once.webp);
    expect(twice.ok && Buffer.compare(twice.webp, once.webp)).toBe(0);
    // A WebP of the tile's size with transparency is still made into a tile (on white).
    const clear = await sharp({ create: { width: LOGO_SIZE, height: LOGO_SIZE, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .webp()
      .toBuffer();
    const made = await optimiseLogo(clear);
    expect(made.ok && (await sharp(made.webp).metadata()).hasAlpha).toBe(false);
  });

  test('JPEG, WebP, GIF and AVIF are accepted; the type comes from the bytes', async () => {
    const base = sharp({ create: { width: 64, height: 64, channels: 3, background: '#0f766e' } });
    for (const bytes of [await base.clone().jpeg().toBuffer(), await base.clone().webp().toBuffer(), await base.clone().gif().toBuffer(), await base.clone().avif().toBuffer()]) {
      const result = await optimiseLogo(bytes);
      expect(result.ok).toBe(true);
    }
  });

  test('an SVG with a script is rasterised: the output holds no script, no markup of the source at all', async () => {
    const hostile = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" onload="alert(1)"><script>alert(document.cookie)</script><circle cx="12" cy="12" r="10" fill="#e4572e"/></svg>',
    );
    const result = await optimiseLogo(hostile);
    if (!result.ok) throw new Error(result.detail);
    expect((await sharp(result.webp).metadata()).format).toBe('webp');
    expect(Buffer.from(result.webp).toString('latin1')).not.toMatch(/script|alert|onload|circle/i);
  });

  test('not an image, another format, or too large: refused with a reason', async () => {
    expect(await optimiseLogo(Buffer.from('<html><body>Not found</body></html>'))).toMatchObject({ ok: false, problem: 'not an image' });
    expect(await optimiseLogo(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))).toMatchObject({ ok: false, problem: 'not an image' });
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect(await optimiseLogo(tiff)).toMatchObject({ ok: false, problem: 'not an image', detail: expect.stringContaining('tiff is not an accepted format') });
    expect(await optimiseLogo(new Uint8Array(MAX_LOGO_BYTES + 1))).toMatchObject({ ok: false, problem: 'too large' });
  });

  test('a small file claiming a huge image (a decompression bomb) is refused, not decoded', async () => {
    const bomb = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="100%" height="100%"/></svg>');
    // An SVG is drawn at the tile's size whatever it claims, so it is no bomb; a raster header is.
    expect((await optimiseLogo(bomb)).ok).toBe(true);
    const png = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(png.byteLength).toBeLessThan(MAX_LOGO_BYTES);
    expect(await optimiseLogo(png)).toMatchObject({ ok: false, problem: 'too large', detail: '6000×6000 pixels, more than 25 million' });
  });
});

// --- internal ---

function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05);
}
