/**
 * Build-output checks on the real build of the project's content: every deal and startup has a
 * page, a Markdown twin and a sitemap entry; every internal link in every built page resolves
 * on the running server (no 404 anywhere in the site).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CatalogData } from '../../src/catalog/catalog.ts';
import { startSite, type Site } from './helpers/site.ts';

let site: Site;
let catalog: CatalogData;
let client: string;

beforeAll(async () => {
  site = await startSite();
  client = join(site.work, 'dist', 'client');
  catalog = JSON.parse(await readFile(join(site.work, 'generated', 'catalog.json'), 'utf8')) as CatalogData;
});
afterAll(async () => {
  await site?.stop();
});

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await htmlFiles(path)));
    else if (entry.name.endsWith('.html')) out.push(path);
  }
  return out;
}

describe('every record has its page, twin and sitemap entry', () => {
  test('deals and startups', async () => {
    const sitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
    const locs = new Set([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] as string).pathname));
    const pages = [...catalog.deals.map((d) => `/deals/${d.slug}/`), ...catalog.startups.map((s) => `/startups/${s.slug}/`)];
    // Every content file became a record (the build dropped none), so every page below is checked.
    const files = async (kind: string) => (await readdir(join(site.work, 'repo', 'content', kind))).filter((name) => name.endsWith('.md')).length;
    expect([catalog.deals.length, catalog.startups.length]).toEqual([await files('deals'), await files('startups')]);
    const missing = pages.filter((p) => !existsSync(join(client, p, 'index.html')) || !existsSync(join(client, p, 'index.md')) || !locs.has(p));
    expect(missing).toEqual([]);
  });

  test('every sitemap entry answers 200 with HTML and its twin with Markdown', async () => {
    const sitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] as string).pathname);
    expect(paths.length).toBeGreaterThan(catalog.deals.length);
    const failures: string[] = [];
    for (const path of paths) {
      const html = await fetch(`${site.url}${path}`);
      const md = await fetch(`${site.url}${path}`, { headers: { Accept: 'text/markdown' } });
      await Promise.all([html.arrayBuffer(), md.arrayBuffer()]);
      if (html.status !== 200 || !html.headers.get('content-type')?.startsWith('text/html')) failures.push(`${path} html ${html.status}`);
      if (md.status !== 200 || !md.headers.get('content-type')?.startsWith('text/markdown')) failures.push(`${path} markdown ${md.status}`);
    }
    expect(failures).toEqual([]);
  });
});

test('every internal link in every built page resolves (no 404 anywhere)', async () => {
  const links = new Set<string>();
  for (const file of await htmlFiles(client)) {
    const html = await readFile(file, 'utf8');
    for (const match of html.matchAll(/(?:href|src|action)="(\/[^"#]*)"/g)) links.add((match[1] as string).replaceAll('&amp;', '&'));
  }
  expect(links.size).toBeGreaterThan(catalog.deals.length);
  const broken: string[] = [];
  for (const link of links) {
    // Forms post to the API; their GET answers are 405 by design.
    if (link.startsWith('/api/') && !link.startsWith('/api/v1/deals') && !link.startsWith('/api/v1/startups')) continue;
    const response = await fetch(`${site.url}${link}`, { redirect: 'manual' });
    await response.arrayBuffer();
    if (response.status >= 400) broken.push(`${link} → ${response.status}`);
  }
  expect(broken).toEqual([]);
});

describe('links out', () => {
  // Paid placements are marked for search engines (issue 15, "Trust"); other records' links are not endorsed.
  test('every deal and startup page marks its outbound links sponsored exactly when the record is a paid placement', async () => {
    const records = [...catalog.deals.map((d) => ({ path: `deals/${d.slug}`, featured: d.featured })), ...catalog.startups.map((s) => ({ path: `startups/${s.slug}`, featured: s.featured }))];
    expect(records.some((r) => r.featured) && records.some((r) => !r.featured)).toBe(true);
    for (const { path, featured } of records) {
      const html = await readFile(join(client, path, 'index.html'), 'utf8');
      const rels = [...html.matchAll(/<a [^>]*href="https?:[^"]*"[^>]*rel="([^"]+)"/g)].map((m) => m[1]);
      expect(rels.length, path).toBeGreaterThan(0);
      for (const rel of rels) expect(rel, path).toBe(featured ? 'sponsored noopener' : 'nofollow noopener');
    }
  });
});
