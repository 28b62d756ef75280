/**
 * A startup page's call to action (issue 15): where someone who wants to buy goes next. The
 * listing itself when `listingUrl` names it; otherwise the site's contact, with the source named;
 * for a business no longer for sale, the businesses that are. Pure, so it is tested directly.
 */
import { paths } from '../agents/site-urls.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';

export interface ListingAction {
  /** The button's words. */
  text: string;
  href: string;
  /** The listing's own link, which takes the record's `rel` (labels.ts `outboundRel`). */
  outbound: boolean;
  /** A sentence beside the button, when the button alone would not say enough. */
  note?: string;
}

/**
 * @example listingAction({ name: 'CronWatch', forSale: true, source: 'acquire', listingUrl: 'https://acquire.com/x' }, categories, site)
 * // { text: 'See the listing on Acquire.com', href: 'https://acquire.com/x', outbound: true }
 */
export function listingAction(
  startup: Pick<Startup, 'name' | 'forSale' | 'source' | 'listingUrl'>,
  categories: Pick<CategoriesFile, 'sources'>,
  site: Pick<Site, 'contact'>,
): ListingAction | undefined {
  if (!startup.forSale) return { text: 'See businesses for sale', href: paths.startups, outbound: false, note: 'This business is no longer for sale.' };
  const source = startup.source ? (categories.sources.find((s) => s.slug === startup.source)?.name ?? startup.source) : undefined;
  if (startup.listingUrl) return { text: source ? `See the listing on ${source}` : 'See the listing', href: startup.listingUrl, outbound: true };
  const note = `${source ? `Source: ${source}. ` : ''}There is no public listing link: ask the editors how to reach the seller.`;
  const { email, url } = site.contact;
  if (email) return { text: 'Ask about this listing', href: `mailto:${email}?subject=${encodeURIComponent(`Startup for sale: ${startup.name}`)}`, outbound: false, note };
  if (url) return { text: 'Contact the editors', href: url, outbound: false, note };
  return undefined;
}
