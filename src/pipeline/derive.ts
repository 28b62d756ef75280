/**
 * Stage 3: derive what the read path needs from validated records: default ordering and a
 * content version that changes whenever anything published changes.
 */
import { createHash } from 'node:crypto';
import type { CategoriesFile } from '../schemas/category.ts';
import type { Deal } from '../schemas/deal.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import type { CatalogData } from '../catalog/catalog.ts';
import { compareDeals, compareStartups } from '../catalog/order.ts';
import { jsonChunks } from '../catalog/utf8-chunks.ts';

/**
 * @param synonyms `synonyms.yaml`, when there is one (it changes search answers, so the version too)
 * @example deriveCatalog(site, categories, deals, startups).version // '3f9a…'
 */
export function deriveCatalog(site: Site, categories: CategoriesFile, deals: Deal[], startups: Startup[], synonyms?: SynonymsFile): CatalogData {
  const sortedDeals = [...deals].sort(compareDeals);
  const sortedStartups = [...startups].sort(compareStartups);
  // Without synonyms the hash input is what it was before synonyms existed: versions stay put.
  const hashed = synonyms ? [site, categories, sortedDeals, sortedStartups, synonyms] : [site, categories, sortedDeals, sortedStartups];
  // The bytes of `JSON.stringify(hashed)`, a record at a time: at 150,000 records that string
  // was 120 MB, and the hash took a UTF-8 copy of it besides (docs/performance.md, thirteenth sitting).
  const hash = createHash('sha256');
  for (const chunk of jsonChunks(hashed, 2)) hash.update(chunk);
  const version = hash.digest('hex').slice(0, 16);
  return { version, site, categories, deals: sortedDeals, startups: sortedStartups, ...(synonyms ? { synonyms } : {}) };
}
