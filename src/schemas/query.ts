/**
 * Query parameters of the public read endpoints (SPEC GET /deals, GET /startups; GET /changes):
 * one table per endpoint that the handlers parse with and the OpenAPI document describes. Empty values count
 * as absent, so plain HTML filter forms can submit "any".
 */
import * as z from 'zod';
import { DEAL_STATUSES } from './deal.ts';
import { REGIONS, STAGES } from './program.ts';

/** Orders of GET /deals (docs/api.md "Sorting"): `relevance` is the order without `sort`. */
export const DEAL_SORTS = ['relevance', 'value', 'expiry', 'newest'] as const;
export type DealSort = (typeof DEAL_SORTS)[number];

/** DESIGN: `limit` above 5000 is silently capped. */
export const LIMIT_CAP = 5000;

const integerText = (pattern: RegExp, what: string) =>
  z
    .string()
    .regex(pattern, { error: `expected ${what}` })
    .transform(Number);

/** One query parameter: how to read it and what to tell a caller who got it wrong. */
export interface QueryParam {
  schema: z.ZodType;
  description: string;
  /** The allowed values, said as a hint in the 400 answer. */
  allowed: string;
  /** How the OpenAPI document types it, when that differs from the text schema (numbers, defaults). */
  openapi?: Record<string, unknown>;
}

export const DEAL_LIST_PARAMS = {
  search: {
    schema: z.string(),
    description: 'Free-text search across title, provider, description and tags; every word must match, the last may be a prefix.',
    allowed: 'any text',
  },
  category: { schema: z.string(), description: 'Category slug, such as `cloud-credits`.', allowed: 'a category slug' },
  status: {
    schema: z.enum([...DEAL_STATUSES, 'all']),
    description: 'Lifecycle filter; when omitted every status except `expired`.',
    allowed: [...DEAL_STATUSES, 'all'].join(', '),
  },
  slug: { schema: z.string(), description: 'Return the single deal with this slug.', allowed: 'a deal slug' },
  id: { schema: z.string(), description: 'Return the single deal with this id.', allowed: 'a deal id' },
  featured: { schema: z.literal('true'), description: 'When `true`, only featured (sponsored) deals.', allowed: 'true' },
  recommended: { schema: z.literal('true'), description: 'When `true`, only editorially recommended deals.', allowed: 'true' },
  limit: {
    schema: integerText(/^[0-9]+$/, 'a whole number').pipe(z.number().min(1, { error: 'expected at least 1' })),
    description: `Maximum number of results (minimum 1); omitted returns every match; values above ${LIMIT_CAP} are capped.`,
    allowed: `a whole number from 1 (values above ${LIMIT_CAP} are capped at ${LIMIT_CAP})`,
    openapi: { type: 'integer', minimum: 1 },
  },
  scope: {
    schema: z.enum(['deals', 'programs', 'all']),
    description: 'Catalog partition: commercial deals, or accelerator/incubator/grant programs, or all. Default `deals`, or the scope of `category` when one is given.',
    allowed: 'deals, programs, all',
    openapi: { type: 'string', enum: ['deals', 'programs', 'all'], default: 'deals' },
  },
  sort: {
    schema: z.enum(DEAL_SORTS),
    description:
      'Order: `relevance` (default: the search ranking with `search`, otherwise featured, recommended, newest), `value` (highest `valueUsd` first, unknown last), ' +
      '`expiry` (closing soonest first, by the earlier of `expiryDate` and `nextDeadline`; none after, expired last), `newest` (`lastUpdated` newest first). ' +
      'Ties keep the default order; with `search`, deals matching more of the words still come first.',
    allowed: DEAL_SORTS.join(', '),
    openapi: { type: 'string', enum: [...DEAL_SORTS], default: 'relevance' },
  },
  equity: {
    schema: z.literal('none'),
    description: 'Program filter: `none` keeps programs that take no equity (`equityPercent` 0).',
    allowed: 'none',
  },
  stage: {
    schema: z.enum(STAGES),
    description: 'Program filter: programs for this funding stage (`stages` lists it).',
    allowed: STAGES.join(', '),
  },
  region: {
    schema: z.enum(REGIONS),
    description: 'Program filter: programs open in this region (one of `regions` is it, inside it or contains it; `global` programs match every region).',
    allowed: REGIONS.join(', '),
  },
} satisfies Record<string, QueryParam>;

export const STARTUP_LIST_PARAMS = {
  category: { schema: z.string(), description: 'Startup category slug, such as `saas`.', allowed: 'a startup category slug' },
  minRevenue: {
    schema: integerText(/^-?[0-9]+$/, 'a whole number'),
    description: 'Annual revenue lower bound in USD, inclusive.',
    allowed: 'a whole number of US dollars',
    openapi: { type: 'integer' },
  },
  maxRevenue: {
    schema: integerText(/^-?[0-9]+$/, 'a whole number'),
    description: 'Annual revenue upper bound in USD, inclusive.',
    allowed: 'a whole number of US dollars',
    openapi: { type: 'integer' },
  },
  country: { schema: z.string(), description: 'ISO 3166-1 alpha-2 country code, such as `US` (case-insensitive).', allowed: 'a country code such as US' },
  search: { schema: z.string(), description: 'Free-text search across name, description and category.', allowed: 'any text' },
  source: { schema: z.string(), description: 'Listing source slug, such as `acquire`.', allowed: 'a source slug' },
  featured: { schema: z.literal('true'), description: 'When `true`, only featured listings.', allowed: 'true' },
  forSale: { schema: z.enum(['true', 'false']), description: 'Only listings for sale (`true`) or no longer for sale (`false`).', allowed: 'true, false' },
} satisfies Record<string, QueryParam>;

/** GET /changes: the page size by default and at most (more is capped). */
export const CHANGES_PAGE = { default: 50, max: 200 };
/** How far back the change feed reaches: the newest commits of the branch's first-parent line it keeps. */
export const CHANGES_REACH = 5000;
/**
 * The most commits one page of the change feed reads (a diff of trees each, about a
 * millisecond in a folder of 5,000 files): a query matching little answers fewer changes, or
 * none, and a `next` that goes on from there, rather than walk everything at once.
 */
export const PAGE_COMMITS = 100;

/** GET /admin/submissions, the review queue: the page size by default and at most (more is capped, like `limit` on deals). */
export const SUBMISSION_PAGE = { default: 200, max: 1000 };
/** GET /admin/startups: listings per page by default and at most (more is capped). */
export const STARTUP_PAGE = { default: 200, max: 1000 };
/** GET /admin/deals/history and /admin/startups/history: versions per page by default and at most (more is capped). */
export const HISTORY_PAGE = { default: 20, max: 100 };
/** How many of a record's latest changes the history pages through and a revert searches for its commit. */
export const HISTORY_REACH = 10_000;

/** What a change is to: a deal (programs too) or a startup listing. */
export const CHANGE_KINDS = ['deal', 'startup'] as const;

/** Where a change feed starts: after a commit (by its id or a prefix of it), or at an instant (ms since the epoch). */
export type ChangesSince = { commit: string } | { date: number };

export const CHANGES_PARAMS = {
  since: {
    schema: z
      .union([z.iso.date(), z.iso.datetime({ offset: true }), z.string().regex(/^[0-9a-fA-F]{4,64}$/)], {
        error: 'expected a date (`2026-11-20`), a date-time with its offset (`2026-11-20T09:30:00Z`) or a commit id (4 to 64 hex digits)',
      })
      .transform((text): ChangesSince => (/^[0-9a-fA-F]+$/.test(text) ? { commit: text.toLowerCase() } : { date: Date.parse(text) })),
    description:
      'Only the changes after this: a commit id (full or at least 4 hex digits, such as the `head` of an earlier answer: the changes the commits after it made), or a date (`YYYY-MM-DD`, from 00:00 UTC) or date-time with offset (changes committed at or after it). Omitted: every change the feed keeps.',
    allowed: 'a date such as 2026-11-20, a date-time with offset such as 2026-11-20T09:30:00Z, or a commit id of 4 to 64 hex digits',
  },
  kind: { schema: z.enum(CHANGE_KINDS), description: 'Only changes to deals, or only to startups.', allowed: 'deal, startup' },
  limit: {
    schema: integerText(/^[0-9]+$/, 'a whole number').pipe(z.number().min(1, { error: 'expected at least 1' })),
    description: `How many changes per page (default ${CHANGES_PAGE.default}); values above ${CHANGES_PAGE.max} are capped.`,
    allowed: `a whole number from 1 (values above ${CHANGES_PAGE.max} are capped at ${CHANGES_PAGE.max})`,
    openapi: { type: 'integer', minimum: 1, default: CHANGES_PAGE.default },
  },
  cursor: {
    schema: z
      .string()
      .regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})\.[0-9]{1,6}$/, { error: 'expected the `next` value of an earlier answer' })
      .transform((text) => ({ commit: text.slice(0, text.indexOf('.')), index: Number(text.slice(text.indexOf('.') + 1)) })),
    description: 'The next page: the `next` value of the answer before (asked with the same `since` and `kind`).',
    allowed: 'the `next` value of an earlier answer',
  },
} satisfies Record<string, QueryParam>;

type Parsed<T extends Record<string, QueryParam>> = { [K in keyof T]?: z.output<T[K]['schema']> };

/** A parameter that failed: its name, what was wrong, and the allowed values. */
export interface ParamProblem {
  name: string;
  message: string;
  allowed: string;
}

/**
 * Read the parameters of `table` from a query string; unknown parameters are ignored.
 * @example parseQuery(DEAL_LIST_PARAMS, new URLSearchParams('limit=5')) // { ok: true, value: { limit: 5 } }
 */
export function parseQuery<T extends Record<string, QueryParam>>(table: T, params: URLSearchParams): { ok: true; value: Parsed<T> } | { ok: false; problem: ParamProblem } {
  const value: Record<string, unknown> = {};
  for (const name in table) {
    const param = table[name] as QueryParam;
    const text = params.get(name);
    if (text === null || text === '') continue;
    const result = param.schema.safeParse(text);
    if (!result.success) {
      const issue = result.error.issues[0];
      const message = issue?.code === 'invalid_value' || issue?.code === 'invalid_type' ? `expected one of ${param.allowed}` : (issue?.message ?? 'invalid value');
      return { ok: false, problem: { name, message, allowed: param.allowed } };
    }
    value[name] = result.data;
  }
  return { ok: true, value: value as Parsed<T> };
}

/**
 * Read the parameters of `table` from a JSON object of filters, as agents send them (A2A data
 * parts, MCP arguments): a number or boolean counts as its text, so `{ "limit": 5 }` is read as
 * `limit=5` by the same schema; `null` and `undefined` count as absent; unknown names are ignored.
 * @example parseFilters(DEAL_LIST_PARAMS, { search: 'aws', limit: 5 }) // { ok: true, value: { search: 'aws', limit: 5 } }
 */
export function parseFilters<T extends Record<string, QueryParam>>(table: T, filters: Record<string, unknown>): ReturnType<typeof parseQuery<T>> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (!Object.hasOwn(table, name) || value === undefined || value === null) continue;
    const param = table[name] as QueryParam;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      return { ok: false, problem: { name, message: `expected ${param.allowed}`, allowed: param.allowed } };
    }
    params.set(name, String(value));
  }
  return parseQuery(table, params);
}

export type DealListQuery = Parsed<typeof DEAL_LIST_PARAMS>;
export type StartupListQuery = Parsed<typeof STARTUP_LIST_PARAMS>;
export type ChangesQuery = Parsed<typeof CHANGES_PARAMS>;
