/**
 * Build-time access to the prebuilt catalog for Astro pages (pages read the catalog, never
 * the API), loaded once per build, with the lists pages show.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CatalogData } from './catalog/catalog.ts';
import type { Deal } from './schemas/deal.ts';

let cached: CatalogData | undefined;
const generatedDir = () => resolve(process.env.GENERATED_DIR ?? 'generated');

/** The catalog written by `npm run build:content`. */
export function siteCatalog(): CatalogData {
  cached ??= JSON.parse(readFileSync(join(generatedDir(), 'catalog.json'), 'utf8')) as CatalogData;
  return cached;
}

/** The logo image the content build made for a deal or startup (src/logos/build-logos.ts), if it made one. */
export function builtLogo(kind: 'deals' | 'startups', slug: string): string | undefined {
  try {
    return readFileSync(join(generatedDir(), 'logos', kind, `${slug}.svg`), 'utf8');
  } catch {
    return undefined;
  }
}

/** Live (not expired) deals of a scope, in the catalog's default order. */
export function liveDeals(scope: 'deals' | 'programs', data = siteCatalog()): Deal[] {
  const scopeOf = new Map(data.categories.deals.map((c) => [c.slug, c.scope]));
  return data.deals.filter((d) => d.status !== 'expired' && scopeOf.get(d.category) === scope);
}

/** How many deals an index page shows before its filter form takes over. */
export const PAGE_SIZE = 48;
