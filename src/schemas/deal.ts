/**
 * The Deal resource (SPEC "Deal"): the single source of truth for the TypeScript type, the
 * editors' JSON Schema and the OpenAPI component. Programs (accelerators, incubators, grants)
 * are deals whose category has `scope: programs`.
 */
import * as z from 'zod';
import { draftFlag, httpUrl, isoDate, recordId, slug, text, textList } from './fields.ts';
import { programFields } from './program.ts';
import { provenanceFields } from './provenance.ts';

export const DEAL_STATUSES = ['active', 'expired', 'coming-soon', 'limited'] as const;
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;

export const DealStatusSchema = z.enum(DEAL_STATUSES);
export const DifficultySchema = z.enum(DIFFICULTIES);

export const DealSchema = z.strictObject({
  id: recordId().describe('Stable identifier, made when the deal is created; never changes, also when the slug does.'),
  slug: slug().describe('The last part of the page address (`/deals/<slug>/`), such as `aws-activate`; made from the title when left empty. Changing it moves the page.'),
  title: text(200).describe('What the deal is, as a founder would search for it, such as `AWS Activate: up to $100,000 in credits`. At most 200 characters.'),
  provider: text(200).describe('Who gives the deal: the company or program, such as `Amazon Web Services`.'),
  category: slug().describe('The category it is listed under (content/categories.yaml); programs (accelerators, incubators, grants) are in a category with `scope: programs`.'),
  subcategory: text(100).describe('A finer grouping inside the category, in plain words, such as `Hosting`.').optional(),
  description: z
    .string()
    .max(20_000)
    .describe('The full text of the deal page, in Markdown: what is offered, how to claim it, the catch. Links to http(s) pages are kept; HTML is shown as text, not run.')
    .optional(),
  shortDescription: text(300).describe('One or two sentences shown on cards and in search results. At most 300 characters.').optional(),
  value: text(200).describe('The headline value as founders read it, such as `Up to $100,000 in credits` or `50% off for a year`.').optional(),
  valueUsd: z
    .number()
    .int()
    .min(0, { error: 'expected a whole number of US dollars from 0, like `100000`' })
    .max(1_000_000_000, { error: 'expected at most 1000000000 (US dollars)' })
    .describe('Estimated headline value in whole US dollars (the most a startup can get: `Up to $100,000` is `100000`); left out when `value` states no dollar amount.')
    .optional(),
  savings: text(100).describe('What a startup saves in short, such as `$5,000`, when it differs from the value.').optional(),
  eligibility: textList().describe('Who can get it, one rule per item, such as `Founded less than 10 years ago`.').optional(),
  requirements: textList().describe('What the application needs, one item each, such as `A company website`.').optional(),
  tags: textList(30, 60).describe('Words search should find the deal by, one per item (at most 30), such as `hosting`.').optional(),
  status: DealStatusSchema.describe('`active`: open now; `limited`: open with few places or a cap; `coming-soon`: announced, not open yet; `expired`: closed, kept for reference.'),
  expiryDate: isoDate().describe('The last day the deal can be claimed (YYYY-MM-DD), when the provider states one.').optional(),
  applicationUrl: httpUrl().describe('Where a founder applies or claims the deal: an absolute `https://` link.'),
  providerWebsite: httpUrl().describe("The provider's home page, such as `https://aws.amazon.com`.").optional(),
  logoUrl: httpUrl().describe("A link to the provider's logo image; the build fetches it, checks it and stores a small copy. Left empty, the site shows a monogram.").optional(),
  featured: z.boolean().default(false).describe('Sponsored: a paid placement, shown first and labelled as sponsored.'),
  recommended: z.boolean().default(false).describe("Editor's pick: recommended by the editors, whatever anyone paid."),
  verified: z.boolean().default(false).describe("An editor checked the terms with the provider's own page."),
  difficulty: DifficultySchema.describe('How much work applying takes: `easy` (a form), `medium` (an application with documents), `hard` (a selective process).').optional(),
  timeToApply: text(100).describe('How long applying takes, in plain words, such as `10 minutes` or `2 weeks to hear back`.').optional(),
  lastUpdated: isoDate().describe('When the deal was last checked or changed (YYYY-MM-DD); a save sets it to today.').optional(),
  ...provenanceFields,
  draft: draftFlag(),
  // The facts founders compare between programs (accelerators, incubators, grants): program.ts.
  ...programFields,
});

/** Front matter of `content/deals/<slug>.md`: the slug is the file name, the body the description. */
export const DealFrontMatterSchema = DealSchema.omit({ slug: true, description: true });

export type Deal = z.output<typeof DealSchema>;
export type DealInput = z.input<typeof DealSchema>;
export type DealStatus = z.output<typeof DealStatusSchema>;
