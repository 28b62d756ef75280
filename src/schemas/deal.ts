/**
 * The Deal resource (SPEC "Deal"): the single source of truth for the TypeScript type, the
 * editors' JSON Schema and the OpenAPI component. Programs (accelerators, incubators, grants)
 * are deals whose category has `scope: programs`.
 */
import * as z from 'zod';
import { draftFlag, httpUrl, isoDate, recordId, slug, text, textList } from './fields.ts';
import { programFields } from './program.ts';

export const DEAL_STATUSES = ['active', 'expired', 'coming-soon', 'limited'] as const;
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;

export const DealStatusSchema = z.enum(DEAL_STATUSES);
export const DifficultySchema = z.enum(DIFFICULTIES);

export const DealSchema = z.strictObject({
  id: recordId(),
  slug: slug(),
  title: text(200),
  provider: text(200),
  category: slug(),
  subcategory: text(100).optional(),
  description: z.string().max(20_000).optional(),
  shortDescription: text(300).optional(),
  value: text(200).optional(),
  valueUsd: z
    .number()
    .int()
    .min(0, { error: 'expected a whole number of US dollars from 0, like `100000`' })
    .max(1_000_000_000, { error: 'expected at most 1000000000 (US dollars)' })
    .describe('Estimated headline value in whole US dollars (the most a startup can get: `Up to $100,000` is `100000`); left out when `value` states no dollar amount.')
    .optional(),
  savings: text(100).optional(),
  eligibility: textList().optional(),
  requirements: textList().optional(),
  tags: textList(30, 60).optional(),
  status: DealStatusSchema,
  expiryDate: isoDate().optional(),
  applicationUrl: httpUrl(),
  providerWebsite: httpUrl().optional(),
  logoUrl: httpUrl().optional(),
  featured: z.boolean().default(false),
  recommended: z.boolean().default(false),
  verified: z.boolean().default(false),
  difficulty: DifficultySchema.optional(),
  timeToApply: text(100).optional(),
  lastUpdated: isoDate().optional(),
  draft: draftFlag(),
  // The facts founders compare between programs (accelerators, incubators, grants): program.ts.
  ...programFields,
});

/** Front matter of `content/deals/<slug>.md`: the slug is the file name, the body the description. */
export const DealFrontMatterSchema = DealSchema.omit({ slug: true, description: true });

export type Deal = z.output<typeof DealSchema>;
export type DealInput = z.input<typeof DealSchema>;
export type DealStatus = z.output<typeof DealStatusSchema>;
