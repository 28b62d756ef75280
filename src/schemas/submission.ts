/**
 * A deal submission (SPEC "Deal submission"): the request body of POST /submit-deal. The JSON
 * Schema generated from this module is what the OpenAPI document publishes and what ajv
 * compiles to validate requests (one source of truth).
 */
import * as z from 'zod';
import { HTTP_URL, httpUrl, normaliseHttpUrl } from './fields.ts';

export const SUBMISSION_CATEGORIES = ['cloud', 'saas', 'marketing', 'hiring', 'legal', 'other'] as const;
export type SubmissionCategory = (typeof SUBMISSION_CATEGORIES)[number];
export const REDEMPTION_METHODS = ['link', 'code'] as const;

const length = (min: number, max: number) => z.string().min(min).max(max);

export const SubmissionSchema = z
  .object({
    company_name: length(2, 120),
    website_url: httpUrl(),
    benefit_description: length(10, 2000),
    category: z.enum(SUBMISSION_CATEGORIES),
    deal_value: z.string().max(100),
    redemption_method: z.enum(REDEMPTION_METHODS).default('link'),
    redemption_link: z.string().min(1).max(300),
    is_exclusive: z.boolean().optional(),
    submitter_email: z.email().optional(),
    logo_url: httpUrl().optional(),
    // Not in SPEC's table (additive, issue 15): which of this site's deal categories it belongs
    // in. Any text here; the handler checks it against the live catalog's categories.
    site_category: z
      .string()
      .max(120)
      .optional()
      .describe(
        'Optional: the deal category of this site it belongs in, a `slug` from GET /api/v1/categories (`deals`), such as `cloud-credits`. Refused with 400 when the catalog has no such category. Editors use it as the default category on approval.',
      ),
  })
  .check((ctx) => {
    // SPEC: a URL when redemption_method is `link`, otherwise a coupon code; a link follows the
    // one rule of every link field (fields.ts normaliseHttpUrl).
    if (ctx.value.redemption_method !== 'link') return;
    const checked = normaliseHttpUrl(ctx.value.redemption_link);
    if (!checked.ok) {
      ctx.issues.push({ code: 'custom', path: ['redemption_link'], message: `expected ${HTTP_URL}${checked.problem} when redemption_method is link`, input: ctx.value.redemption_link });
    }
  })
  .overwrite((value) => {
    const checked = value.redemption_method === 'link' ? normaliseHttpUrl(value.redemption_link) : undefined;
    return checked?.ok ? { ...value, redemption_link: checked.url } : value;
  });

export type Submission = z.output<typeof SubmissionSchema>;

/**
 * The JSON Schema of a submission, with the link rule (which zod keeps in a refinement)
 * written as `if`/`then` so ajv applies it too. Every `format: uri` string in it, the `then`
 * branch's included, is a link that the request validator (functions/http/body-validator.ts)
 * first checks and normalises with fields.ts `normaliseHttpUrl`, as the zod schema does.
 */
export function submissionJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(SubmissionSchema, { io: 'input' }) as Record<string, unknown>;
  return {
    ...schema,
    title: 'Deal submission',
    if: { properties: { redemption_method: { const: 'link' } } },
    then: { properties: { redemption_link: { type: 'string', format: 'uri', pattern: '^https?://' } } },
  };
}

/**
 * The SPEC `category` a site category stands for, for the submission form, which asks for the
 * site category only (src/pages/submit/index.astro): the coarse kind of offer SPEC's six values
 * name. A site category not listed here (programs, banking, or one added to the content since)
 * is `other`.
 * @example submissionCategoryFor('ai-ml-credits') // 'cloud'
 */
export function submissionCategoryFor(siteCategory: string): SubmissionCategory {
  return Object.hasOwn(SUBMISSION_CATEGORY_FOR_SITE, siteCategory) ? (SUBMISSION_CATEGORY_FOR_SITE[siteCategory] as SubmissionCategory) : 'other';
}

const SUBMISSION_CATEGORY_FOR_SITE: Record<string, SubmissionCategory> = {
  'cloud-credits': 'cloud',
  'ai-ml-credits': 'cloud',
  'saas-discounts': 'saas',
  'developer-tools': 'saas',
  analytics: 'saas',
  design: 'saas',
  'ad-credits': 'marketing',
  hiring: 'hiring',
  legal: 'legal',
};

/**
 * What is wrong with one field of a submission, as a code (the validator's, functions/http/
 * body-validator.ts): a page words each code itself and never shows text it did not write.
 */
export const FIELD_PROBLEMS = ['required', 'too_short', 'too_long', 'not_allowed', 'invalid_url', 'invalid_email', 'invalid'] as const;
export type FieldProblem = (typeof FIELD_PROBLEMS)[number];

/**
 * The outcome of a submission posted by the site's own form (`Astro.locals.submitDeal`, made by
 * functions/writes/submit-deal.ts `submitForm`): accepted with its id, or refused with the
 * status to answer, each field's problem (one per field, in the order found) or a problem of the
 * whole form, and the fields as typed, to show them again.
 */
export type FormSubmission =
  | { accepted: true; id: string }
  | {
      accepted: false;
      status: number;
      values: Record<string, string>;
      problems: Array<{ field: string; problem: FieldProblem }>;
      /** A problem of the whole submission rather than a field: too many from this address, too large, the store unavailable, unreadable. */
      form?: 'too_many' | 'too_large' | 'unavailable' | 'invalid';
      retryAfterSeconds?: number;
    };
