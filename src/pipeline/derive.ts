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

/**
 * @param synonyms `synonyms.yaml`, when there is one (it changes search answers, so the version too)
 * @example deriveCatalog(site, categories, deals, startups).version // '3f9a…'
 */
export function deriveCatalog(site: Site, categories: CategoriesFile, deals: Deal[], startups: Startup[], synonyms?: SynonymsFile): CatalogData {
  const sortedDeals = [...deals].sort(compareDeals);
  const sortedStartups = [...startups].sort(compareStartups);
  // Without synonyms the hash input is what it was before synonyms existed: versions stay put.
  const hashed = synonyms ? [site, categories, sortedDeals, sortedStartups, synonyms] : [site, categories, sortedDeals, sortedStartups];
  const version = createHash('sha256').update(JSON.stringify(hashed)).digest('hex').slice(0, 16);
  return { version, site, categories, deals: sortedDeals, startups: sortedStartups, ...(synonyms ? { synonyms } : {}) };
}
