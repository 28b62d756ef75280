/**
 * The site as a Web handler (functions/site/site.ts), in process, on a real Astro build of the
 * fixture catalog: built files with ETag/304/brotli, Markdown twins, path traversal, Astro's
 * on-demand search pages, pages changed since the build rendered live once per catalog version,
 * a deleted deal's page gone, what other methods get, and every record's logo (a deal created
 * since the build gets its monogram).
 */
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createCatalogState } from '../../functions/reads/catalog-state.ts';
import { PreparedCache } from '../../functions/reads/prepared-cache.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';
import { MemorySearchGapStore } from '../../functions/search-gaps/store.ts';
import { SearchGaps } from '../../functions/search-gaps/search-gaps.ts';
import { builtSite } from '../../functions/site/live-pages.ts';
import { LiveLogos } from '../../functions/site/live-logos.ts';
import { createSite, loadAstroRender, type AstroRender, type SiteDeps } from '../../functions/site/site.ts';
import { serveStatic } from '../../functions/site/static-files.ts';
import { withChangedDeals, type Catalog } from '../../src/catalog/catalog.ts';
import { loadConfig } from '../../functions/config.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { logoHtml } from '../../src/logos/logo-markup.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { astroBuild } from '../helpers/astro-build.ts';
import { FIXTURES } from '../helpers/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const TODAY = '2026-11-21';
// Inside the project, as the e2e builds are: Astro's server bundle resolves `node_modules` from there.
const E2E_DIR = join(ROOT, '.e2e');
const work = join(E2E_DIR, `site-handler-${process.pid}-${Date.now().toString(36)}`);
const distDir = join(work, 'dist');
const clientDir = join(distDir, 'client');

let built: Catalog;
let current: Catalog;
let deps: SiteDeps;
let astro: AstroRender;
let renders: string[];
let site: (request: Request) => Promise<Response>;
const config = loadConfig({ DATA_DIR: join(work, 'data'), PORT: '0', HOST: '127.0.0.1' });

/** The catalog after an admin write of `upserts` / `removals` (as the write path makes it). */
function afterWrite(previous: Catalog, upserts: Deal[], removedSlugs: string[] = []): Catalog {
  const next = new ContentSnapshot(previous).withDealChanges(upserts, removedSlugs, TODAY);
  if (!next.value) throw new Error(JSON.stringify(next.diagnostics));
  return withChangedDeals(previous, next.value.data, next.value.changed, next.value.removedIds);
}

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => site(new Request(`http://deals.test${path}`, { method, headers }));

beforeAll(async () => {
  await mkdir(work, { recursive: true });
  const generatedDir = join(work, 'generated');
  const result = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: TODAY });
  if (!result.value) throw new Error('fixture does not build');
  await emitCatalog(generatedDir, result.value);
  await astroBuild(generatedDir, distDir);
  // On-demand pages read the site's settings from the generated catalog at render time.
  process.env.GENERATED_DIR = generatedDir;
  built = current = await loadGeneratedCatalog(generatedDir);
  const render = await loadAstroRender(distDir);
  if (!render) throw new Error('the build has no server entry');
  astro = render;
  const gaps = new SearchGaps(new MemorySearchGapStore(), () => TODAY);
  deps = {
    config,
    builtSite: builtSite(built),
    state: () => createCatalogState(current, []),
    searchGaps: gaps,
    prepared: new PreparedCache({ maxEntries: 100, maxBytes: 8 * 1024 * 1024, answers: true }),
    logos: new LiveLogos(join(FIXTURES, 'valid'), generatedDir),
  };
  renders = [];
  site = createSite(deps, {
    clientDir,
    render: (request, locals, options) => {
      renders.push(new URL(request.url).pathname);
      return astro(request, locals, options);
    },
  });
}, 120_000);

afterAll(async () => {
  delete process.env.GENERATED_DIR;
  await rm(work, { recursive: true, force: true });
  await rmdir(E2E_DIR).catch(() => undefined);
});

describe('built files', () => {
  test('a built page: 200, weak ETag, the page headers; 304 on If-None-Match', async () => {
    const page = await get('/deals/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Revalidated on every visit: a page changed by a write shows at once (issue 15).
    expect(page.headers.get('cache-control')).toBe('public, no-cache');
    expect(page.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = page.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"[0-9a-z]+-[0-9a-z]+"$/);
    expect(await page.text()).toContain('<h1');

    const again = await get('/deals/', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(etag);
    // The same page by its file name, and without the trailing slash.
    expect((await get('/deals/index.html')).headers.get('etag')).toBe(etag);
    expect((await get('/deals')).headers.get('etag')).toBe(etag);
  });

  test('brotli when accepted: a coding-suffixed ETag that revalidates, the same bytes once decoded', async () => {
    const plain = new Uint8Array(await (await get('/deals/')).arrayBuffer());
    const br = await get('/deals/', { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('etag')).toMatch(/^W\/".+-br"$/);
    expect(new Uint8Array(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())))).toEqual(plain);
    expect((await get('/deals/', { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.get('etag') ?? '' })).status).toBe(304);
    expect((await get('/deals/', { 'Accept-Encoding': 'gzip' })).headers.get('content-encoding')).toBe('gzip');
  });

  test('the Markdown twin on Accept: text/markdown', async () => {
    const twin = await get('/deals/', { Accept: 'text/markdown' });
    expect(twin.status).toBe(200);
    expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(twin.headers.get('etag')).toMatch(/-md"$/);
    expect(twin.headers.get('vary')).toMatch(/^Accept, Accept-Encoding$/);
    expect(await twin.text()).toMatch(/^#|\n#/);
    expect((await get('/deals/', { Accept: 'text/html, text/markdown;q=0.5' })).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  test('hashed assets are cached for a year; other files for five minutes, typed', async () => {
    const html = await (await get('/')).text();
    const asset = /(\/_astro\/[^"]+\.css)/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const css = await get(asset ?? '');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const svg = await get('/favicon.svg');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('public, max-age=300');
  });

  test('paths never leave the build: 404 with the built 404 page', async () => {
    for (const path of ['/%2e%2e%2f%2e%2e%2fpackage.json', '/..%2f..%2fpackage.json', '/deals/%2e%2e/%2e%2e/%2e%2e/package.json', '/%00', '/%']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toContain('<html');
    }
    // Even when the caller passes an unnormalised path.
    expect(await serveStatic(new Request('http://deals.test/'), clientDir, '/../../package.json')).toBeUndefined();
    expect(await serveStatic(new Request('http://deals.test/'), clientDir, '/../server/entry.mjs')).toBeUndefined();
    expect((await serveStatic(new Request('http://deals.test/'), clientDir, '/../client/index.html'))?.status).toBe(200);
  });

  test('HEAD: the GET headers (the adapter drops the body)', async () => {
    const head = await get('/deals/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe((await get('/deals/')).headers.get('etag'));
  });
});

describe('on-demand pages', () => {
  test('search results render from the live catalog, and the search is counted', async () => {
    const note = vi.spyOn(deps.searchGaps, 'note');
    renders.length = 0;
    const response = await get('/deals/search/?search=aws');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('AWS Activate Founders');
    expect(renders).toEqual(['/deals/search/']);
    expect(note).toHaveBeenCalledWith('aws', expect.any(Number));
    note.mockRestore();
    expect(await (await get('/startups/search/')).text()).toContain('Search startups for sale');
  });

  test('without Astro, an on-demand page is the 404 page', async () => {
    const bare = createSite(deps, { clientDir });
    expect((await bare(new Request('http://deals.test/deals/search/?search=aws'))).status).toBe(404);
  });

  test('other methods: only on-demand pages answer (Astro refuses cross-site form posts); else a plain 404', async () => {
    for (const [method, path] of [
      ['POST', '/deals/'],
      ['PUT', '/'],
      ['DELETE', '/about/'],
    ] as const) {
      const response = await get(path, {}, method);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe('Not found');
    }
    const post = await site(new Request('http://deals.test/deals/search/', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=b' }));
    expect(post.status).toBe(403);
    expect(await post.text()).toMatch(/Cross-site POST form submissions are forbidden/);
  });
});

describe('pages changed since the build', () => {
  test('a changed deal and the lists render live once per catalog version, at their own URL', async () => {
    const deal = built.deals.find((d) => d.slug === 'aws-activate') ?? (built.deals[0] as Deal);
    current = afterWrite(built, [{ ...deal, value: 'A brand new live value' }]);
    renders.length = 0;
    const first = await get(`/deals/${deal.slug}/`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    const etag = first.headers.get('etag');
    expect(etag).toBe(`W/"live-${current.version}"`);
    const html = await first.text();
    expect(html).toContain('A brand new live value');
    expect(html).toContain(`/deals/${deal.slug}/"`);
    expect(renders).toEqual([`/deals/${deal.slug}/`]);

    // From the kept bytes: no second render, the same bytes, 304 and brotli like a file.
    const second = await get(`/deals/${deal.slug}/`);
    expect(await second.text()).toBe(html);
    expect((await get(`/deals/${deal.slug}/index.html`, { 'If-None-Match': etag ?? '' })).status).toBe(304);
    expect((await get(`/deals/${deal.slug}/`, { 'Accept-Encoding': 'br' })).headers.get('etag')).toBe(`W/"live-${current.version}-br"`);
    expect(renders).toHaveLength(1);

    // A list page: its canonical link is its own path, not the route Astro renders it with.
    const list = await (await get('/deals/index.html')).text();
    expect(list).toContain('A brand new live value');
    expect(list).toMatch(/<link rel="canonical" href="[^"]*\/deals\/"/);
    expect(list).not.toContain('/live/page/');
    expect(renders).toEqual([`/deals/${deal.slug}/`, '/deals/']);

    // Concurrent first requests share one render.
    renders.length = 0;
    const pages = await Promise.all([get('/programs/'), get('/programs/'), get('/programs/')]);
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200]);
    expect(renders).toEqual(['/programs/']);

    // The Markdown twin, from the live catalog, without Astro.
    renders.length = 0;
    const twin = await get(`/deals/${deal.slug}/`, { Accept: 'text/markdown' });
    expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(twin.headers.get('etag')).toBe(`W/"live-${current.version}-md"`);
    expect(await twin.text()).toContain('A brand new live value');
    expect(await (await get(`/deals/${deal.slug}/index.md`)).text()).toContain('A brand new live value');
    expect(renders).toEqual([]);

    // An unchanged deal keeps its built file.
    const other = built.deals.find((d) => d.slug !== deal.slug) as Deal;
    expect((await get(`/deals/${other.slug}/`)).headers.get('etag')).not.toMatch(/live-/);
  });

  test("a deleted deal's page is the 404 page", async () => {
    const deal = built.deals.find((d) => d.slug === 'notion-plus') ?? (built.deals[1] as Deal);
    expect((await get(`/deals/${deal.slug}/`)).status).toBe(200);
    current = afterWrite(built, [], [deal.slug]);
    const gone = await get(`/deals/${deal.slug}/`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('<html');
    expect((await get(`/deals/${deal.slug}/`, { Accept: 'text/markdown' })).status).toBe(404);
  });
});

describe('logos', () => {
  test('built without the logo step, every card and record page draws its monogram: no image is asked for', async () => {
    current = built;
    const deal = built.deals[0] as Deal;
    const monogramOf = (name: string, size: 48 | 64) => logoHtml({ kind: 'deals', slug: deal.slug, name, hasImage: false, size });
    const list = await (await get('/deals/')).text();
    expect(list).toContain(monogramOf(deal.provider, 48));
    expect(list).not.toMatch(/src="\/logos\//);
    expect(await (await get(`/deals/${deal.slug}/`)).text()).toContain(monogramOf(deal.provider, 64));
    expect(await (await get('/logos/index.json')).json()).toEqual({ deals: [], startups: [] });
  });

  test('a deal created after the build: its live pages show its monogram', async () => {
    const model = built.deals[0] as Deal;
    const created: Deal = { ...model, id: 'd-newlogo1', slug: 'brand-new-logo-deal', title: 'Brand new logo deal', provider: 'Nouvelle Époque Labs' };
    current = afterWrite(built, [created]);
    const tile = 'data-initials="NÉ" aria-hidden="true"></span>';
    expect(await (await get(`/deals/${created.slug}/`)).text()).toContain(tile);
    expect(await (await get('/deals/')).text()).toContain(tile);
  });

  test('a logo path naming no image, or not a logo path, is the 404 page', async () => {
    current = built;
    const deal = built.deals[0] as Deal;
    for (const path of [
      `/logos/deals/${deal.slug}.webp`,
      `/logos/deals/${deal.slug}.svg`,
      '/logos/startups/no-such-startup.webp',
      '/logos/deals/UPPER.webp',
      '/logos/other/x.webp',
      '/logos/deals/../index.webp',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
    }
  });
});
