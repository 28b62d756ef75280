/**
 * Shapes of the API's answers that are not a resource of their own: the stats of a deal list
 * and the SPEC error object. The OpenAPI document (functions/docs/openapi.ts) and the contract
 * tests read them from here.
 */
import * as z from 'zod';

/** SPEC: the allowed error `code` values. */
export const ERROR_CODES = [
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

/** `stats` of GET /api/v1/deals: counts over every match before `limit`. */
export const DealStatsSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  expired: z.number().int(),
  featured: z.number().int(),
  recommended: z.number().int(),
  scope: z.enum(['deals', 'programs', 'all']),
  byCategory: z.record(z.string(), z.number().int()),
});

/** The SPEC error object every failure answers with. */
export const ErrorBodySchema = z.strictObject({
  success: z.literal(false),
  error: z.string().describe('Human-readable message.'),
  code: z.enum(ERROR_CODES).describe('Stable machine-readable code.'),
  hint: z.string().optional().describe('Suggested next step.'),
  timestamp: z.iso.datetime({ offset: true }),
});

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
