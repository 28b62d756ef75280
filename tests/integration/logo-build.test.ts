/**
 * The logo step of the build (src/logos/build-logos.ts) on a real content tree and a real
 * `node:http` server on 127.0.0.1 that serves a PNG, a 404, a page, an oversized body, a slow
 * answer and a redirect, counting every request: committed files first (an SVG with a script
 * rasterised), each URL downloaded once, every failure a monogram and a line of the build
 * output, results cached between builds (failures for a day), nothing fetched with fetching off,
 * and internal addresses refused unless allowed.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CatalogData } from '../../src/catalog/catalog.ts';
import { buildLogos, formatLogoReport, type LogoOptions } from '../../src/logos/build-logos.ts';
import { FAILURE_MEMORY_MS } from '../../src/logos/logo-cache.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { FIXTURES } from '../helpers/server.ts';

let server: Server;
let base: string;
let work: string;
let contentDir: string;
let data: CatalogData;
let png: Buffer;
/** Requests the server answered, by path and query. */
const requests: string[] = [];
const count = (path: string) => requests.filter((r) => r === path).length;

beforeAll(async () => {
  png = await sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    if (path.startsWith('/logo.png')) response.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
    else if (path === '/redirect') response.writeHead(302, { Location: '/logo.png?via=redirect' }).end();
    else if (path === '/page.html') response.writeHead(200, { 'Content-Type': 'image/png' }).end('<!doctype html><title>Not a logo</title>');
    else if (path === '/huge.png') {
      // No Content-Length: the cap is enforced on the stream itself.
      response.writeHead(200, { 'Content-Type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      for (let i = 0; i < 40; i++) response.write(chunk);
      response.end();
    } else if (path === '/declared-huge.png') response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(5 * 1024 * 1024) }).end();
    else if (path.startsWith('/slow.png')) setTimeout(() => response.writeHead(200, { 'Content-Type': 'image/png' }).end(png), 2_000).unref();
    else response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  work = await mkdtemp(join(tmpdir(), 'logo-build-'));
  contentDir = join(work, 'content');
  await cp(join(FIXTURES, 'valid'), contentDir, { recursive: true });
  await mkdir(join(contentDir, 'logos', 'deals'), { recursive: true });
  await mkdir(join(contentDir, 'logos', 'startups'), { recursive: true });
  await writeFile(join(contentDir, 'logos', 'deals', 'stripe-atlas.png'), png);
  await writeFile(join(contentDir, 'logos', 'deals', 'stripe-atlas.gif'), png);
  await writeFile(join(contentDir, 'logos', 'deals', 'no-such-deal.png'), png);
  await writeFile(join(contentDir, 'logos', 'deals', 'techstars.bmp'), png);
  await writeFile(
    join(contentDir, 'logos', 'startups', 'formbird.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><script>alert(document.cookie)</script><circle cx="12" cy="12" r="10" fill="#e4572e"/></svg>',
  );
  // A committed file that is no image: the deal's logoUrl is tried next.
  await writeFile(join(contentDir, 'logos', 'deals', 'techstars.png'), 'GIF89a not really');
  const built = runPipeline(await readContent(contentDir), { today: '2026-11-21' });
  if (!built.value) throw new Error('fixture does not build');
  const urls: Record<string, string> = {
    'aws-activate': `${base}/logo.png`,
    'google-cloud': `${base}/logo.png`,
    'digitalocean-hatch': `${base}/missing.png`,
    'heroku-credits': `${base}/page.html`,
    'hubspot-startups': `${base}/huge.png`,
    'cafe-zurich': `${base}/declared-huge.png`,
    'notion-plus': `${base}/slow.png`,
    'stripe-atlas': `${base}/never.png`,
    techstars: `${base}/redirect`,
  };
  data = {
    ...built.value.data,
    deals: built.value.data.deals.map((d) => ({ ...d, logoUrl: urls[d.slug] })),
    startups: built.value.data.startups.map((s) => (s.slug === 'invoicenest' ? { ...s, logoUrl: `${base}/logo.png` } : s)),
  };
});

afterAll(async () => {
  server?.close();
  await rm(work, { recursive: true, force: true });
});

const options = (generatedDir: string, extra: Partial<LogoOptions> = {}): LogoOptions => ({
  contentDir,
  generatedDir: join(work, generatedDir),
  fetch: true,
  timeoutMs: 500,
  allowPrivateAddresses: true,
  ...extra,
});
const logo = (generatedDir: string, kind: string, slug: string) => readFile(join(work, generatedDir, 'logos', kind, `${slug}.webp`));
/** A 96-pixel square WebP, as the optimiser makes it. */
const isRaster = async (bytes: Buffer) => {
  const meta = await sharp(bytes).metadata();
  return meta.format === 'webp' && meta.width === 96 && meta.height === 96;
};
const logoIndexOf = async (generatedDir: string) => JSON.parse(await readFile(join(work, generatedDir, 'logos', 'index.json'), 'utf8')) as { deals: string[]; startups: string[] };
const shown = (lines: string[]) => lines.map((line) => line.replaceAll(base, 'http://logos.test'));

describe('the first build', () => {
  let lines: string[];
  beforeAll(async () => {
    requests.length = 0;
    lines = formatLogoReport(await buildLogos(data, options('generated')));
  });

  test('says what it made in one line, then one line per fallback and per stray file', () => {
    expect(shown(lines)).toMatchInlineSnapshot(`
      [
        "logos: 2 from files, 4 from logoUrl, 10 monograms (no logo given: 5, logoUrl too large: 2, logoUrl HTTP error: 1, logoUrl not an image: 1, logoUrl timed out: 1)",
        "logo: content/logos/deals/no-such-deal.png: no deal has this slug; ignored",
        "logo: content/logos/deals/stripe-atlas.gif: content/logos/deals/stripe-atlas.png is used instead; ignored",
        "logo: content/logos/deals/techstars.bmp: not a logo file type (.svg, .png, .webp, .avif, .jpg, .jpeg, .gif); ignored",
        "logo: content/deals/cafe-zurich.md: logoUrl http://logos.test/declared-huge.png: too large (more than 1024 KB); monogram instead",
        "logo: content/deals/digitalocean-hatch.md: logoUrl http://logos.test/missing.png: HTTP error (HTTP 404); monogram instead",
        "logo: content/deals/heroku-credits.md: logoUrl http://logos.test/page.html: not an image (not a readable image); monogram instead",
        "logo: content/deals/hubspot-startups.md: logoUrl http://logos.test/huge.png: too large (more than 1024 KB); monogram instead",
        "logo: content/deals/notion-plus.md: logoUrl http://logos.test/slow.png: timed out (no complete answer within 0.5 s); monogram instead",
        "logo: content/deals/techstars.md: content/logos/deals/techstars.png: not an image (not a readable image); logoUrl instead",
      ]
    `);
  });

  test('a committed file wins over logoUrl (which is never requested); a committed file that is no image falls back to logoUrl', async () => {
    expect(await isRaster(await logo('generated', 'deals', 'stripe-atlas'))).toBe(true);
    expect(count('/never.png')).toBe(0);
    expect(await isRaster(await logo('generated', 'deals', 'techstars'))).toBe(true);
    expect(count('/redirect')).toBe(1);
  });

  test('a committed SVG with a script is served rasterised: no script, no markup of its own', async () => {
    const image = await logo('generated', 'startups', 'formbird');
    expect(await isRaster(image)).toBe(true);
    expect(image.toString('latin1')).not.toMatch(/script|alert|circle/i);
  });

  test('each URL is downloaded once, however many records name it', async () => {
    for (const slug of ['aws-activate', 'google-cloud']) expect(await isRaster(await logo('generated', 'deals', slug))).toBe(true);
    expect(await isRaster(await logo('generated', 'startups', 'invoicenest'))).toBe(true);
    expect(count('/logo.png')).toBe(1);
    expect(count('/logo.png?via=redirect')).toBe(1);
  });

  test('every other record gets no image (its pages draw its monogram); the index lists exactly the records with one', async () => {
    const index = await logoIndexOf('generated');
    for (const kind of ['deals', 'startups'] as const) {
      expect((await readdir(join(work, 'generated', 'logos', kind))).sort()).toEqual(index[kind].map((slug) => `${slug}.webp`).sort());
    }
    expect(index).toEqual({ deals: ['aws-activate', 'google-cloud', 'stripe-atlas', 'techstars'], startups: ['formbird', 'invoicenest'] });
    for (const slug of ['digitalocean-hatch', 'heroku-credits', 'hubspot-startups', 'notion-plus', 'y-combinator']) expect(index.deals).not.toContain(slug);
  });
});

describe('later builds', () => {
  test('a rebuild makes no request: successes and recent failures come from the cache, with the same images', async () => {
    const before = await logo('generated', 'deals', 'aws-activate');
    requests.length = 0;
    const report = await buildLogos(data, options('generated'));
    expect(requests).toEqual([]);
    expect([report.fromFiles, report.fromUrls, report.monograms]).toEqual([2, 4, 10]);
    expect((await logo('generated', 'deals', 'aws-activate')).equals(before)).toBe(true);
    expect(report.notes.find((n) => n.includes('missing.png'))).toMatch(/HTTP 404; failed on a build at \d{4}-\d\d-\d\d \d\d:\d\d UTC, tried again from/);
  });

  test('a day later, failures are tried again, successes still not', async () => {
    requests.length = 0;
    await buildLogos(data, options('generated', { now: () => Date.now() + FAILURE_MEMORY_MS + 60_000 }));
    expect(requests.sort()).toEqual(['/declared-huge.png', '/huge.png', '/missing.png', '/page.html', '/slow.png']);
  });

  test('with fetching off nothing is requested; cached logos are still used, others are monograms that say why', async () => {
    requests.length = 0;
    const cached = await buildLogos(data, options('generated', { fetch: false }));
    expect(cached.fromUrls).toBe(4);
    const fresh = formatLogoReport(await buildLogos(data, options('generated-off', { fetch: false })));
    expect(requests).toEqual([]);
    expect(fresh[0]).toBe('logos: 2 from files, 0 from logoUrl, 14 monograms (logoUrl not fetched: 9, no logo given: 5)');
    expect(shown(fresh)).toContain('logo: content/deals/aws-activate.md: logoUrl http://logos.test/logo.png: not fetched (LOGO_FETCH=off); monogram instead');
  });

  test("downloads stop when the build's time budget is spent; what was not tried is not remembered", async () => {
    const allSlow: CatalogData = { ...data, deals: data.deals.map((d, i) => ({ ...d, logoUrl: `${base}/slow.png?budget=${i}` })), startups: [] };
    requests.length = 0;
    const report = await buildLogos(allSlow, options('generated-budget', { concurrency: 1, budgetMs: 100, timeoutMs: 300 }));
    // One download ran out of time (300 ms, beyond the budget of 100 ms); no other started. The deal with a committed file needs none.
    expect(requests).toHaveLength(1);
    expect(report.reasons).toEqual({ 'logoUrl timed out': 1, 'logoUrl not fetched': data.deals.length - 2 });
    expect(report.notes.join('\n')).toContain("the build's 0.1 s for downloads was spent; tried on the next build");
    requests.length = 0;
    await buildLogos(allSlow, options('generated-budget', { timeoutMs: 300 }));
    expect(requests).toHaveLength(data.deals.length - 2);
  });
});

test('internal addresses are refused unless allowed, by IP or by a name resolving to one: nothing is requested', async () => {
  const port = new URL(base).port;
  const hosts = ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '[::1]', '169.254.169.254', '10.1.2.3'];
  const internal: CatalogData = {
    ...data,
    deals: data.deals
      .filter((d) => d.slug !== 'stripe-atlas' && d.slug !== 'techstars')
      .slice(0, hosts.length)
      .map((d, i) => ({ ...d, logoUrl: `http://${hosts[i]}:${port}/logo.png` })),
    startups: [],
  };
  requests.length = 0;
  const report = await buildLogos(internal, options('generated-internal', { allowPrivateAddresses: false }));
  expect(requests).toEqual([]);
  expect(report.fromUrls).toBe(0);
  const notes = report.notes.join('\n');
  for (const address of [
    '127.0.0.1 is an internal address',
    'localhost resolves to the internal address',
    '::ffff:7f00:1 is an internal address',
    '::1 is an internal address',
    '169.254.169.254 is an internal address',
    '10.1.2.3 is an internal address',
  ])
    expect(notes).toContain(address);
});
