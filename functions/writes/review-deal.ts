/**
 * The deal a submission becomes when approved as it is (and the prefill of "Edit and approve"):
 * a title from the company and the kind of offer, a slug from the company alone, unique against
 * every deal the admin manages (drafts too), so the catalog's `<company>-for-startups` style
 * is kept and the submitter's wording of the value stays in `value`, not in the title or URL.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { codeSpan } from '../../src/agents/markdown-policy.ts';
import { slugify } from '../../src/schemas/slugify.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import type { SubmissionRecord } from '../submissions/store.ts';

/**
 * Default deal category for each submission category, for a submission without `site_category`
 * (the admin may choose another).
 */
export const CATEGORY_FOR_SUBMISSION: Record<string, string> = {
  cloud: 'cloud-credits',
  saas: 'saas-discounts',
  marketing: 'ad-credits',
  hiring: 'hiring',
  legal: 'legal',
};

/** What is offered, by submission category, after the company's name in a default title. */
const OFFERED: Record<string, string> = {
  cloud: 'Startup Credits',
  saas: 'Startup Discount',
  marketing: 'Ad Credits for Startups',
};

/** The deal an approved submission becomes: its id comes from the submission's, so a retried approval finds it. */
export const dealIdOf = (submission: SubmissionRecord): string => `d-${submission.id.slice(4)}`;

/** "Acme Vector DB Startup Credits", "Acme for Startups": the company and what it offers. */
export function defaultTitle(submission: SubmissionRecord): string {
  return `${oneLine(submission.company_name)} ${OFFERED[submission.category] ?? 'for Startups'}`.slice(0, 200);
}

/** A slug of the company name, with `-2`, `-3`… while another deal (a draft too) has it. */
export function uniqueSlug(catalog: Catalog, submission: SubmissionRecord): string {
  const base = slugify(oneLine(submission.company_name)).slice(0, 100).replace(/-+$/, '') || dealIdOf(submission);
  let slug = base;
  for (let n = 2; catalog.editable.dealBySlug.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/** The deal category: the submitter's site category while the catalog has it, else SPEC's category's (none for `other`). */
export function defaultCategory(catalog: Catalog, submission: SubmissionRecord): string | undefined {
  const chosen = submission.site_category;
  if (chosen !== undefined && catalog.categories.deals.some((c) => c.slug === chosen)) return chosen;
  return CATEGORY_FOR_SUBMISSION[submission.category];
}

/** Every field the submission gives, as a deal (category left out when none follows from it). */
export function suggestedDeal(catalog: Catalog, submission: SubmissionRecord, today: string): Partial<Deal> {
  const code = submission.redemption_method === 'code' ? `\n\nRedemption code: ${codeSpan(submission.redemption_link)}` : '';
  const category = defaultCategory(catalog, submission);
  return {
    id: dealIdOf(submission),
    slug: uniqueSlug(catalog, submission),
    title: defaultTitle(submission),
    provider: oneLine(submission.company_name),
    ...(category ? { category } : {}),
    description: `${submission.benefit_description}${code}`,
    ...(submission.deal_value ? { value: oneLine(submission.deal_value) } : {}),
    status: 'active',
    applicationUrl: submission.redemption_method === 'link' ? submission.redemption_link : submission.website_url,
    providerWebsite: submission.website_url,
    ...(submission.logo_url ? { logoUrl: submission.logo_url } : {}),
    featured: false,
    recommended: false,
    verified: false,
    lastUpdated: today,
  };
}

// --- internal ---

/** Submitted text as one line (a company name or value with line breaks would not be one). */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
