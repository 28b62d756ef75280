/**
 * A deal submission (SPEC "Deal submission"): the request body of POST /submit-deal. The JSON
 * Schema generated from this module is what the OpenAPI document publishes and what ajv
 * compiles to validate requests (one source of truth).
 */
import * as z from 'zod';
import { HTTP_URL, httpUrl, normaliseHttpUrl } from './fields.ts';

export const SUBMISSION_CATEGORIES = ['cloud', 'saas', 'marketing', 'hiring', 'legal', 'other'] as const;
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
