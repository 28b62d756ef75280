/**
 * A member's own billing (issue 18, item 6): GET /api/v1/me/billing (the plan in words), and the
 * two buttons of /account/billing/: POST /api/v1/me/billing/checkout starts the plan on Stripe
 * Checkout (a subscription to STRIPE_PRICE_ID, with the 30-day trial the first time), POST
 * /api/v1/me/billing/portal opens Stripe's customer portal (card, invoices, cancelling). For
 * people in a browser: the same-origin session cookie. A form post is answered with a 303 to
 * Stripe's page (or back to the billing page saying why not); JSON callers get `{ url }`. The
 * checkout and portal posts are 404 while paid plans are off (after the session is checked). The plan itself changes only when
 * Stripe's signed webhook says so (webhook.ts), never on the way back from Checkout.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { isFormBody } from '../http/request-body.ts';
import { currentSession, requireMember, requireSameOrigin } from '../auth/guard.ts';
import type { Session } from '../auth/session.ts';
import { redirect } from '../auth/sign-in.ts';
import { BILLING_PAGE, planOf } from './plan-guard.ts';
import { isOnPlan } from './plan-state.ts';
import type { StripeGateway } from './stripe-gateway.ts';
import type { BillingState } from '../../src/schemas/billing.ts';

export type BillingDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config' | 'billing' | 'log'>;

const PERSONAL = { 'Cache-Control': 'private, no-store' };

/** GET /me/billing: the member's plan, and whether paid plans are on at all. */
export async function getBilling(request: Request, deps: BillingDeps): Promise<Response> {
  const session = await requireMember(request, deps);
  return answerResponse(request, jsonAnswer(200, await planOf(session, deps), PERSONAL));
}

/** The plan of the request's session, or undefined without one (the server-rendered /account/billing/ page). */
export async function signedInBilling(request: Request, deps: BillingDeps): Promise<BillingState | undefined> {
  const session = await currentSession(request, deps);
  return session ? planOf(session, deps) : undefined;
}

/** POST /me/billing/checkout: a Checkout session for the plan; refused (400 `conflict`) while the member is on it. */
export async function postCheckout(request: Request, deps: BillingDeps): Promise<Response> {
  const { gateway, session, form } = await billingRequest(request, deps);
  if (!session) return redirect(`/login?next=${encodeURIComponent(BILLING_PAGE)}`);
  const plan = await deps.auth.accounts.memberData(({ plans }) => plans.find(session.email));
  if (isOnPlan(plan?.status)) {
    if (form) return redirect(`${BILLING_PAGE}?error=on_plan`);
    throw new ApiError(400, 'conflict', 'This account is on the plan already.', { hint: 'Change or cancel it in the customer portal: POST /api/v1/me/billing/portal.' });
  }
  const origin = new URL(request.url).origin;
  const url = await gateway.checkout({
    account: session.email,
    customerId: plan?.customerId ?? null,
    trial: !plan?.subscriptionId,
    successUrl: `${origin}${BILLING_PAGE}?started=1`,
    cancelUrl: `${origin}${BILLING_PAGE}?cancelled=1`,
  });
  return sent(request, url, form);
}

/** POST /me/billing/portal: Stripe's customer portal for the member's customer; 404 before the member ever started a plan. */
export async function postPortal(request: Request, deps: BillingDeps): Promise<Response> {
  const { gateway, session, form } = await billingRequest(request, deps);
  if (!session) return redirect(`/login?next=${encodeURIComponent(BILLING_PAGE)}`);
  const plan = await deps.auth.accounts.memberData(({ plans }) => plans.find(session.email));
  if (!plan?.customerId) {
    if (form) return redirect(`${BILLING_PAGE}?error=no_customer`);
    throw new ApiError(404, 'not_found', 'This account has no billing account yet.', { hint: 'Start the plan first: POST /api/v1/me/billing/checkout.' });
  }
  return sent(request, await gateway.portal(plan.customerId, `${new URL(request.url).origin}${BILLING_PAGE}`), form);
}

// --- internal ---

/**
 * What both posts check first: who is asking (JSON callers hear 401 without a session; a form
 * post without one goes to sign in: session undefined; cross-site is 403), then paid plans on (404).
 */
async function billingRequest(request: Request, deps: BillingDeps): Promise<{ gateway: StripeGateway; session: Session | undefined; form: boolean }> {
  const form = isFormBody(request);
  const session = form ? await currentSession(request, deps) : await requireMember(request, deps);
  requireSameOrigin(request, deps);
  const gateway = deps.billing;
  if (!gateway) throw new ApiError(404, 'not_found', 'Paid plans are not configured on this site: every member feature is free.', { hint: 'Nothing to pay for; see /account/billing/.' });
  return { gateway, session, form };
}

/** To Stripe's page: a 303 for a form, `{ url }` for JSON. */
async function sent(request: Request, url: string, form: boolean): Promise<Response> {
  if (form) return redirect(url);
  return answerResponse(request, jsonAnswer(200, { success: true, url }, PERSONAL));
}
