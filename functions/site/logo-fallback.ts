/**
 * Logos of records the built site does not have: a deal an admin created after the build has no
 * `/logos/deals/<slug>.svg` file, so its card would show a broken image. Such a path answers the
 * record's monogram (src/logos/monogram.ts), made once per name, from the live catalog; a path
 * naming no record stays a 404. Logo files themselves are made only by a build.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { monogramSvg } from '../../src/logos/monogram.ts';
import { sendEntry, type BodyEntry } from './static-files.ts';

/**
 * The monogram answer for a logo path of a record in `catalog`, or `undefined` when the path is
 * no logo path or names no record.
 * @example await fallbackLogo(request, '/logos/deals/new-deal.svg', catalog) // 200, image/svg+xml
 */
export async function fallbackLogo(request: Request, pathname: string, catalog: Catalog): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const match = LOGO_PATH.exec(pathname);
  if (!match) return undefined;
  const [, kind, slug] = match as unknown as [string, 'deals' | 'startups', string];
  const name = kind === 'deals' ? catalog.dealBySlug.get(slug)?.provider : catalog.startups.find((s) => s.slug === slug)?.name;
  if (name === undefined) return undefined;
  let entry = monograms.get(name);
  if (!entry) {
    const body = new TextEncoder().encode(monogramSvg(name));
    entry = { version: createHash('sha256').update(body).digest('base64url').slice(0, 16), body, encoded: {} };
    monograms.set(name, entry);
  }
  // As built files are: reusable for five minutes, then revalidated (a rebuild may bring the real logo).
  const headers = { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' };
  return sendEntry(request, entry, headers, { tag: `logo-${entry.version}`, compressible: true, status: 200 });
}

// --- internal ---

const LOGO_PATH = /^\/logos\/(deals|startups)\/([a-z0-9]+(?:-[a-z0-9]+)*)\.svg$/;

/** Monograms by name: a few hundred bytes each, bounded. */
const monograms = new LRUCache<string, BodyEntry>({ max: 1000 });
