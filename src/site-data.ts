/**
 * Build-time access to the prebuilt catalog for Astro pages (pages read the catalog, never
 * the API), loaded once per build, with the lists pages show.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CatalogData } from './catalog/catalog.ts';
import { logoIndex, type LogoIndex } from './logos/logo-index.ts';
import type { Deal } from './schemas/deal.ts';

let cached: CatalogData | undefined;
const generatedDir = () => resolve(process.env.GENERATED_DIR ?? 'generated');

/** The catalog written by `npm run build:content`. */
export function siteCatalog(): CatalogData {
  cached ??= JSON.parse(readFileSync(join(generatedDir(), 'catalog.json'), 'utf8')) as CatalogData;
  return cached;
}

/** Whether the content build made a logo image for a deal or startup (src/logos/build-logos.ts). */
export function hasBuiltLogo(kind: 'deals' | 'startups', slug: string): boolean {
  return logoIndex(generatedDir())[kind].has(slug);
}

/** The logo image the content build made for a deal or startup, if it made one. */
export function builtLogo(kind: 'deals' | 'startups', slug: string): Buffer | undefined {
  return hasBuiltLogo(kind, slug) ? readFileSync(join(generatedDir(), 'logos', kind, `${slug}.webp`)) : undefined;
}

/** The list of records with a logo image, as built. */
export function builtLogoIndex(): LogoIndex {
  const index = logoIndex(generatedDir());
  return { deals: [...index.deals], startups: [...index.startups] };
}

/** Live (not expired) deals of a scope, in the catalog's default order. */
export function liveDeals(scope: 'deals' | 'programs', data = siteCatalog()): Deal[] {
  const scopeOf = new Map(data.categories.deals.map((c) => [c.slug, c.scope]));
  return data.deals.filter((d) => d.status !== 'expired' && scopeOf.get(d.category) === scope);
}

/** How many deals an index page shows before its filter form takes over. */
export const PAGE_SIZE = 48;
