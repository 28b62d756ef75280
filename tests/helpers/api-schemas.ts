/**
 * The SPEC's response shapes as zod schemas, restated here (not imported from the server) so
 * the tests check the server against the contract rather than against itself.
 */
import { expect } from 'vitest';
import * as z from 'zod';
import { DealSchema } from '../../src/schemas/deal.ts';
import { StartupSchema } from '../../src/schemas/startup.ts';

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
  deals: z.array(DealSchema),
  count: z.int().nonnegative(),
  stats: DealStatsSchema,
});

export const DealSingleSchema = z.strictObject({ success: z.literal(true), deal: DealSchema });

export const StartupListSchema = z.strictObject({
  success: z.literal(true),
  startups: z.array(StartupSchema),
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
