/**
 * Optional paid plans (issue 18, item 6): the member features a plan can be required for (the
 * names PLAN_REQUIRED_FOR takes), which subscription states count as being on a plan, and what
 * GET /api/v1/me/billing, the checkout and portal posts and the Stripe webhook answer. The OpenAPI
 * document publishes them under the names in `ANSWER_SCHEMAS` and `REQUEST_SCHEMAS`.
 */
import * as z from 'zod';

/** The member features PLAN_REQUIRED_FOR may name: each gated with `requirePlan` (functions/billing/plan-guard.ts) where it is served. */
export const PLAN_FEATURES = ['saved', 'dashboard', 'alerts', 'submissions'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

/** Each feature in words, as answers and pages name it. */
export const PLAN_FEATURE_LABELS: Record<PlanFeature, string> = {
  saved: 'Saving deals',
  dashboard: 'The dashboard',
  alerts: 'E-mail alerts',
  submissions: 'Following your submissions on your dashboard',
};

/** Stripe subscription states that count as being on the plan; every other one (`past_due`, `canceled`, `unpaid`, `incomplete`…) does not. */
export const ON_PLAN_STATUSES: readonly string[] = ['active', 'trialing'];

/** How long the trial of a first subscription lasts (SPEC: plans start with a 30-day trial). */
export const TRIAL_DAYS = 30;

/** What a member's plan is, as GET /api/v1/me/billing and /account/billing/ say it. */
export const BillingStateSchema = z.looseObject({
  success: z.literal(true),
  enabled: z.boolean().describe('Whether paid plans are configured on this site; when not, every member feature is free.'),
  requiredFor: z.array(z.enum(PLAN_FEATURES)).describe('The member features that need a plan (PLAN_REQUIRED_FOR); empty: none.'),
  onPlan: z.boolean().describe('Whether the account is on the plan: its subscription is `active` or `trialing`.'),
  unlocked: z.boolean().describe('Whether the account may use the features in `requiredFor`: on the plan, an admin, or paid plans off.'),
  status: z.string().nullable().describe("The subscription's state as Stripe last reported it (`trialing`, `active`, `past_due`, `canceled`, `unpaid`…); null: never subscribed."),
  trialEndsAt: z.string().nullable().describe('When the trial ends (ISO 8601), while trialing.'),
  renewsAt: z.string().nullable().describe('When the current period ends and the plan renews (ISO 8601), unless it is set to cancel.'),
  cancelsAt: z.string().nullable().describe('When the plan ends because it was cancelled (ISO 8601).'),
  trialAvailable: z.boolean().describe('Whether starting a plan begins with the free trial (once per account).'),
  canManage: z.boolean().describe('Whether the account has a billing customer, so the customer portal can be opened.'),
});

/** A Stripe-hosted page to send the browser to (Checkout or the customer portal). */
export const BillingRedirectSchema = z.looseObject({
  success: z.literal(true),
  url: z.string().describe('The Stripe-hosted page to open (a form post is answered with a 303 to it).'),
});

/** What the webhook did with an event; Stripe only reads the status. */
export const BillingWebhookAnswerSchema = z.looseObject({
  success: z.literal(true),
  received: z.string().describe('The event id.'),
  outcome: z
    .enum(['applied', 'duplicate', 'superseded', 'ignored'])
    .describe(
      '`applied`; `duplicate`: this event id was processed before (nothing done again); `superseded`: older than the state already stored; `ignored`: a type or object this site does not act on.',
    ),
});

/** POST /api/v1/me/billing/checkout and …/portal take no fields: the button is an empty form. */
export const BillingRequestSchema = z.object({}).describe('No fields: the page posts an empty form; a body is not read.');

export type BillingState = z.infer<typeof BillingStateSchema>;
export type BillingWebhookAnswer = z.infer<typeof BillingWebhookAnswerSchema>;
