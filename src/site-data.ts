/**
 * Build-time access to the prebuilt catalog for Astro pages (pages read the catalog, never
 * the API). Loaded once per build.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CatalogData } from './catalog/catalog.ts';

let cached: CatalogData | undefined;

/** The catalog written by `npm run build:content`. */
export function siteCatalog(): CatalogData {
  cached ??= JSON.parse(
    readFileSync(join(resolve(process.env.GENERATED_DIR ?? 'generated'), 'catalog.json'), 'utf8'),
  ) as CatalogData;
  return cached;
}
