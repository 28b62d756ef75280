/**
 * Which member features need a plan (PLAN_REQUIRED_FOR, one setting), and the guard each gated
 * feature calls once it knows the session: a member without an `active` or `trialing`
 * subscription gets 402 with the way to the billing page; an admin always passes, and with paid
 * plans off (the default) everyone does.
 */
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import type { Session } from '../auth/session.ts';
import { billingState, isOnPlan } from './plan-state.ts';
import { PLAN_FEATURE_LABELS, TRIAL_DAYS, type BillingState, type PlanFeature } from '../../src/schemas/billing.ts';

export type PlanDeps = Pick<Deps, 'config' | 'auth'>;

/** The page that says the member's plan and starts or manages it. */
export const BILLING_PAGE = '/account/billing/';

/**
 * Whether `feature` is closed to this session for want of a plan.
 * @example if (await needsPlan('saved', session, deps)) return redirect(planPage('saved'))
 */
export async function needsPlan(feature: PlanFeature, session: Pick<Session, 'email' | 'role'>, deps: PlanDeps): Promise<boolean> {
  const billing = deps.config.billing;
  if (!billing?.requiredFor.includes(feature) || session.role === 'admin') return false;
  const plan = await deps.auth.accounts.memberData(({ plans }) => plans.find(session.email));
  return !isOnPlan(plan?.status);
}

/**
 * The guard of a gated feature: returns when the session may use it.
 * @throws ApiError 402 (code `forbidden`, SPEC's closed list of codes) with a hint to the billing page
 * @example await requirePlan('alerts', session, deps)
 */
export async function requirePlan(feature: PlanFeature, session: Pick<Session, 'email' | 'role'>, deps: PlanDeps): Promise<void> {
  if (await needsPlan(feature, session, deps)) throw planRequired(feature);
}

/** The 402 of a feature closed for want of a plan (for a handler that asked `needsPlan` itself). */
export function planRequired(feature: PlanFeature): ApiError {
  return new ApiError(402, 'forbidden', `${PLAN_FEATURE_LABELS[feature]} needs a plan on this site.`, {
    hint: `Start the ${TRIAL_DAYS}-day trial or renew your plan on ${BILLING_PAGE} (POST /api/v1/me/billing/checkout).`,
  });
}

/** Where a form post of a gated feature sends the browser: the billing page, saying which feature asked. */
export const planPage = (feature: PlanFeature): string => `${BILLING_PAGE}?needed=${feature}`;

/** The plan of a signed-in account, as GET /api/v1/me/billing and /account/billing/ say it. */
export async function planOf(session: Pick<Session, 'email' | 'role'>, deps: PlanDeps): Promise<BillingState> {
  // With paid plans off nothing is read: the database need not even answer.
  const row = deps.config.billing ? await deps.auth.accounts.memberData(({ plans }) => plans.find(session.email)) : undefined;
  return billingState(deps.config.billing, session.role, row);
}
