/**
 * Live pages have the head of the built page (issue 15, item 5): after an admin write, the
 * catalog pages are rendered live from the current catalog; their canonical URL, og:url,
 * Markdown alternate and JSON-LD must be what the build wrote for the same page (never the
 * renderer's own `/live/page/` address), and the alternate must answer. Compared with the
 * built files on disk, for every catalog page type.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { getJson, type ApiDeal } from '../helpers/browser.ts';
import { e2e } from '../helpers/context.ts';
import { addAccount, signInCookie } from './admin.ts';

const EDITOR = { email: 'e2e-live-head@example.com', password: 'e2e-live-head-password' };

interface Head {
  canonical: string[];
  ogUrl: string[];
  alternate: string[];
  jsonLd: unknown[];
}

/** The head facts that name the page, read from its HTML. */
function headOf(html: string): Head {
  const head = html.slice(0, html.indexOf('</head>'));
  const all = (pattern: RegExp) => [...head.matchAll(pattern)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
  return {
    canonical: all(/<link rel="canonical" href="([^"]*)"/g),
    ogUrl: all(/<meta property="og:url" content="([^"]*)"/g),
    alternate: all(/<link rel="alternate" type="text\/markdown" href="([^"]*)"/g),
    jsonLd: all(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g).map((text) => JSON.parse(text) as unknown),
  };
}

/** JSON-LD without what a write may change (names, dates, lists of entries): the addresses and types. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : ['…'];
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => ['@context', '@type', '@id', 'url', 'mainEntityOfPage', 'isPartOf'].includes(key))
      .map(([key, inner]) => [key, shapeOf(inner)]),
  );
}

export function liveHeadSuite(): void {
  describe('live pages', () => {
    test("after a write, every catalog page type is live with the built page's canonical, og:url, Markdown alternate and JSON-LD", async () => {
      addAccount(EDITOR.email, '--password', EDITOR.password);
      // The server looks at the accounts file at most every 2 s; a slow poll stays under the sign-in throttle.
      const signIn = () => fetch(e2e().url('/api/v1/auth/login'), { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: e2e().url('') }, body: JSON.stringify(EDITOR) });
      await expect.poll(async () => (await signIn()).status, { timeout: 6000, interval: 1000 }).toBe(200);
      const cookie = await signInCookie(EDITOR);
      const { deals } = await getJson<{ deals: ApiDeal[] }>(e2e().url('/api/v1/deals?limit=1'));
      const deal = deals[0] as ApiDeal;
      const pages = ['/', '/deals/', '/programs/', '/startups/', `/categories/${deal.category}/`, `/deals/${deal.slug}/`];
      const built = new Map<string, Head>();
      for (const path of pages) built.set(path, headOf(await readFile(join(e2e().site.work, 'dist', 'client', path, 'index.html'), 'utf8')));

      // A change no head shows: the page of this deal and every list page become live.
      const headers = { 'Content-Type': 'application/json', Cookie: cookie, Origin: e2e().url('') };
      const write = await fetch(e2e().url('/api/v1/deals'), { method: 'PUT', headers, body: JSON.stringify({ slug: deal.slug, timeToApply: 'About 20 minutes (e2e live head)' }) });
      expect(write.status).toBe(200);
      expect(await (await fetch(e2e().url(`/deals/${deal.slug}/`))).text()).toContain('About 20 minutes (e2e live head)');

      for (const path of pages) {
        const response = await fetch(e2e().url(path));
        expect(response.status, path).toBe(200);
        const live = headOf(await response.text());
        const before = built.get(path) as Head;
        expect(before.canonical, `${path}: the built page has one canonical`).toHaveLength(1);
        expect(live.canonical, path).toEqual(before.canonical);
        expect(live.ogUrl, path).toEqual(before.ogUrl);
        expect(live.alternate, path).toEqual(before.alternate);
        expect(live.jsonLd.map(shapeOf), path).toEqual(before.jsonLd.map(shapeOf));
        expect(JSON.stringify(live)).not.toContain('/live/');
        for (const href of live.alternate) {
          const twin = await fetch(e2e().url(href));
          expect(twin.status, `${path} alternate ${href}`).toBe(200);
          expect(twin.headers.get('content-type'), href).toContain('text/markdown');
        }
      }
    });
  });
}
