/**
 * The Startup listing resource (SPEC "Startup listing"): a business offered for sale.
 * Category and source slugs are checked against `content/categories.yaml` by the pipeline.
 */
import * as z from 'zod';
import { draftFlag, httpUrl, isoDate, recordId, slug, text } from './fields.ts';
import { provenanceFields } from './provenance.ts';

/** Whole US dollars; large enough for any small business, small enough to stay exact. */
const dollars = () => z.number().int().min(0).max(1_000_000_000_000);

export const StartupSchema = z.strictObject({
  id: recordId(),
  slug: slug(),
  name: text(200),
  category: slug(),
  description: z.string().max(20_000).optional(),
  summary: text(160).describe('One line saying what the business is, for cards and link previews.').optional(),
  revenue: dollars().optional(),
  revenueDisplay: text(100).optional(),
  askingPrice: dollars().optional(),
  askingPriceDisplay: text(100).optional(),
  website: httpUrl().optional(),
  /** A logo to download at build time when no file is committed under content/logos/startups/ (docs/editing-content.md). */
  logoUrl: httpUrl().optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { error: 'expected an ISO 3166-1 alpha-2 country code in upper case, like `US`' })
    .optional(),
  source: slug().optional(),
  listingUrl: httpUrl().describe("The listing itself, where it is for sale (on the `source` marketplace): the page's call to action.").optional(),
  featured: z.boolean().default(false),
  forSale: z.boolean().default(true),
  lastUpdated: isoDate().optional(),
  ...provenanceFields,
  draft: draftFlag(),
});

/** Front matter of `content/startups/<slug>.md`: the slug is the file name, the body the description. */
export const StartupFrontMatterSchema = StartupSchema.omit({ slug: true, description: true });

export type Startup = z.output<typeof StartupSchema>;
