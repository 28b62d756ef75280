/**
 * `/sitemap.xml`: every public page with `lastmod` from the content. Pending submissions are
 * not content of the catalog, so they can never appear.
 */
import type { CatalogData } from '../catalog/catalog.ts';
import { absolute, paths } from './site-urls.ts';

/** Every public page path with its last modification date (YYYY-MM-DD), newest content first. */
export function publicPages(data: CatalogData): { path: string; lastmod?: string | undefined }[] {
  const newest = (dates: (string | undefined)[]) => dates.filter(Boolean).sort().at(-1);
  const scopeOf = new Map(data.categories.deals.map((c) => [c.slug, c.scope]));
  const allDates = newest(data.deals.map((d) => d.lastUpdated));
  return [
    { path: paths.home, lastmod: allDates },
    { path: paths.deals, lastmod: newest(data.deals.filter((d) => scopeOf.get(d.category) === 'deals').map((d) => d.lastUpdated)) },
    { path: paths.programs, lastmod: newest(data.deals.filter((d) => scopeOf.get(d.category) === 'programs').map((d) => d.lastUpdated)) },
    { path: paths.startups, lastmod: newest(data.startups.map((s) => s.lastUpdated)) },
    { path: paths.submit },
    { path: paths.about },
    { path: paths.privacy },
    { path: paths.developers },
    ...data.categories.deals.map((c) => ({ path: paths.category(c.slug), lastmod: newest(data.deals.filter((d) => d.category === c.slug).map((d) => d.lastUpdated)) })),
    ...data.deals.map((d) => ({ path: paths.deal(d), lastmod: d.lastUpdated })),
    ...data.startups.map((s) => ({ path: paths.startup(s), lastmod: s.lastUpdated })),
  ];
}

/** The sitemap document (sitemaps.org 0.9). */
export function sitemapXml(data: CatalogData): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const urls = publicPages(data).map((page) => `  <url><loc>${escape(absolute(data.site.baseUrl, page.path))}</loc>${page.lastmod ? `<lastmod>${page.lastmod}</lastmod>` : ''}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** `/robots.txt`: everything public may be crawled; admin and API internals are not pages. */
export function robotsTxt(data: CatalogData): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /admin/', 'Disallow: /login', '', `Sitemap: ${absolute(data.site.baseUrl, paths.sitemap)}`, ''].join('\n');
}
