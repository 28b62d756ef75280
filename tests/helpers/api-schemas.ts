/**
 * The SPEC's response shapes as zod schemas, written here from SPEC.md and DESIGN.md (nothing is
 * imported from the server's own schemas) so the tests check the server against the contract
 * rather than against itself. Strict, and without defaults: a field the server forgets to send
 * is a failure here, not a value filled in.
 */
import { expect } from 'vitest';
import * as z from 'zod';

/** DESIGN: dates are ISO 8601 calendar dates. */
const calendarDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** SPEC "string, URI": an absolute http(s) URL. */
const uri = () => z.url({ protocol: /^https?$/ });
const strings = () => z.array(z.string());

/**
 * SPEC "Deal", as this API sends it: SPEC's required fields, plus `featured`, `recommended` and
 * `verified`, which every answer carries (false when not set), and the additive optional facts
 * of issue 15 (`valueUsd`, `equityPercent`, `stages`, `regions`, `nextDeadline`).
 */
export const DealContractSchema = z.strictObject({
  id: z.string().min(1),
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  title: z.string().min(1),
  provider: z.string().min(1),
  category: z.string().min(1),
  subcategory: z.string().optional(),
  description: z.string().optional(),
  shortDescription: z.string().optional(),
  value: z.string().optional(),
  savings: z.string().optional(),
  eligibility: strings().optional(),
  requirements: strings().optional(),
  tags: strings().optional(),
  status: z.enum(['active', 'expired', 'coming-soon', 'limited']),
  expiryDate: calendarDate().optional(),
  applicationUrl: uri(),
  providerWebsite: uri().optional(),
  logoUrl: uri().optional(),
  featured: z.boolean(),
  recommended: z.boolean(),
  verified: z.boolean(),
  difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  timeToApply: z.string().optional(),
  lastUpdated: calendarDate().optional(),
  valueUsd: z.int().nonnegative().optional(),
  equityPercent: z.number().min(0).max(100).optional(),
  stages: z.array(z.string().min(1)).min(1).optional(),
  regions: z.array(z.string().min(1)).min(1).optional(),
  nextDeadline: calendarDate().optional(),
});

/** SPEC "Startup listing", as this API sends it: `featured` and `forSale` always present; `lastUpdated`, `logoUrl`, `summary` and `listingUrl` are additive fields. */
export const StartupContractSchema = z.strictObject({
  id: z.string().min(1),
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  name: z.string().min(1),
  category: z.string().min(1),
  description: z.string().optional(),
  revenue: z.number().optional(),
  revenueDisplay: z.string().optional(),
  askingPrice: z.number().optional(),
  askingPriceDisplay: z.string().optional(),
  website: uri().optional(),
  logoUrl: uri().optional(),
  country: z.string().optional(),
  source: z.string().optional(),
  summary: z.string().min(1).optional(),
  listingUrl: uri().optional(),
  featured: z.boolean(),
  forSale: z.boolean(),
  lastUpdated: calendarDate().optional(),
});

/** SPEC "Errors": the allowed `code` values. */
export const SPEC_ERROR_CODES = [
  'bad_request',
  'validation_error',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'conflict',
  'service_unavailable',
  'internal_error',
] as const;

/** SPEC error object: exactly these keys, `hint` optional. */
export const ErrorBodySchema = z.strictObject({
  success: z.literal(false),
  error: z.string().min(1),
  code: z.enum(SPEC_ERROR_CODES),
  hint: z.string().min(1).optional(),
  timestamp: z.iso.datetime(),
});

/** SPEC "Deal list statistics". */
export const DealStatsSchema = z.strictObject({
  total: z.int().nonnegative(),
  active: z.int().nonnegative(),
  expired: z.int().nonnegative(),
  featured: z.int().nonnegative(),
  recommended: z.int().nonnegative(),
  scope: z.enum(['deals', 'programs', 'all']),
  byCategory: z.record(z.string(), z.int().positive()),
});

export const DealListSchema = z.strictObject({
  success: z.literal(true),
  deals: z.array(DealContractSchema),
  count: z.int().nonnegative(),
  stats: DealStatsSchema,
});

export const DealSingleSchema = z.strictObject({ success: z.literal(true), deal: DealContractSchema });

export const StartupListSchema = z.strictObject({
  success: z.literal(true),
  startups: z.array(StartupContractSchema),
  total: z.int().nonnegative(),
});

export type ErrorBody = z.output<typeof ErrorBodySchema>;
export type DealList = z.output<typeof DealListSchema>;
export type StartupList = z.output<typeof StartupListSchema>;

/** Assert that `body` is a SPEC error object and return it typed. */
export function expectErrorBody(body: unknown): ErrorBody {
  const result = ErrorBodySchema.safeParse(body);
  expect(result.error?.issues ?? [], JSON.stringify(body)).toEqual([]);
  return result.data as ErrorBody;
}

/** Assert that `body` is a deal list whose numbers agree with each other, and return it typed. */
export function expectDealList(body: unknown): DealList {
  const result = DealListSchema.safeParse(body);
  expect(result.error?.issues ?? [], JSON.stringify(body).slice(0, 500)).toEqual([]);
  const list = result.data as DealList;
  expect(list.count).toBe(list.deals.length);
  expect(list.count).toBeLessThanOrEqual(list.stats.total);
  expect(Object.values(list.stats.byCategory).reduce((a, b) => a + b, 0)).toBe(list.stats.total);
  return list;
}

/** Assert that `body` is a startup list with `total` equal to the number returned. */
export function expectStartupList(body: unknown): StartupList {
  const result = StartupListSchema.safeParse(body);
  expect(result.error?.issues ?? [], JSON.stringify(body).slice(0, 500)).toEqual([]);
  const list = result.data as StartupList;
  expect(list.total).toBe(list.startups.length);
  return list;
}
