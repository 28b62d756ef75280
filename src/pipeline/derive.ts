/**
 * Stage 3: derive what the read path needs from validated records: default ordering and a
 * content version that changes whenever anything published changes.
 */
import { createHash } from 'node:crypto';
import type { CategoriesFile } from '../schemas/category.ts';
import type { Deal } from '../schemas/deal.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';
import type { CatalogData } from '../catalog/catalog.ts';
import { compareDeals, compareStartups } from '../catalog/order.ts';

/**
 * @example deriveCatalog(site, categories, deals, startups).version // '3f9a…'
 */
export function deriveCatalog(site: Site, categories: CategoriesFile, deals: Deal[], startups: Startup[]): CatalogData {
  const sortedDeals = [...deals].sort(compareDeals);
  const sortedStartups = [...startups].sort(compareStartups);
  const version = createHash('sha256').update(JSON.stringify([site, categories, sortedDeals, sortedStartups])).digest('hex').slice(0, 16);
  return { version, site, categories, deals: sortedDeals, startups: sortedStartups };
}
