/**
 * Stripe events as Stripe sends them, signed with the official library's own test helper
 * (`stripe.webhooks.generateTestHeaderString`), and delivered to the server's webhook over real
 * HTTP. The objects carry the fields of the API version the library speaks (a subscription's
 * period end on its items).
 */
import Stripe from 'stripe';
import type { JsonResult } from './writes-harness.ts';
import { call } from './writes-harness.ts';

export const TEST_BILLING = {
  secretKey: 'sk_test_recordedkey0000000000',
  webhookSecret: 'whsec_testsigningsecret00000000',
  priceId: 'price_testplan0001',
} as const;

/** The settings that turn paid plans on, against a recording server at `apiUrl`, gating `requiredFor`. */
export function billingEnv(apiUrl: string, requiredFor = 'saved,submissions'): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: TEST_BILLING.secretKey,
    STRIPE_WEBHOOK_SECRET: TEST_BILLING.webhookSecret,
    STRIPE_PRICE_ID: TEST_BILLING.priceId,
    STRIPE_API_URL: apiUrl,
    PLAN_REQUIRED_FOR: requiredFor,
  };
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  data: { object: Record<string, unknown> };
}

let serial = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(serial += 1).toString(36).padStart(4, '0')}`;
export const now = (): number => Math.floor(Date.now() / 1000);

export function event(type: string, object: Record<string, unknown>, created = now(), id = nextId('evt')): StripeEvent {
  return { id, object: 'event', type, created, api_version: Stripe.API_VERSION, livemode: false, data: { object } };
}

/** checkout.session.completed of our Checkout: the account in `client_reference_id`. */
export function checkoutCompleted(options: { account: string; customer: string; subscription: string; created?: number; mode?: string }): StripeEvent {
  return event(
    'checkout.session.completed',
    {
      id: nextId('cs_test'),
      object: 'checkout.session',
      mode: options.mode ?? 'subscription',
      status: 'complete',
      client_reference_id: options.account,
      customer: options.customer,
      subscription: options.subscription,
      metadata: { account: options.account },
    },
    options.created,
  );
}

export interface SubscriptionOptions {
  id: string;
  customer: string;
  status: string;
  /** The account our Checkout writes into the subscription's metadata (absent: a subscription made elsewhere). */
  account?: string;
  created?: number;
  trialEnd?: number | null;
  periodEnd?: number;
  price?: string;
  cancelAtPeriodEnd?: boolean;
  eventId?: string;
}

/** customer.subscription.created / .updated / .deleted. */
export function subscriptionEvent(type: 'created' | 'updated' | 'deleted', options: SubscriptionOptions): StripeEvent {
  const created = options.created ?? now();
  const periodEnd = options.periodEnd ?? created + 30 * 86_400;
  return event(
    `customer.subscription.${type}`,
    {
      id: options.id,
      object: 'subscription',
      customer: options.customer,
      status: options.status,
      trial_end: options.trialEnd === undefined ? null : options.trialEnd,
      cancel_at: null,
      cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
      metadata: options.account ? { account: options.account } : {},
      items: {
        object: 'list',
        data: [{ id: nextId('si'), object: 'subscription_item', price: { id: options.price ?? TEST_BILLING.priceId, object: 'price' }, quantity: 1, current_period_end: periodEnd }],
      },
    },
    created,
    options.eventId,
  );
}

/** The `Stripe-Signature` of a payload, by the library's helper. */
export function signature(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  const stripe = new Stripe(TEST_BILLING.secretKey);
  return stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? TEST_BILLING.webhookSecret, ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }) });
}

/**
 * POST an event to the webhook, signed unless `signed: false`.
 * @param options.payload the exact body to send (default: the event as JSON)
 */
export function deliver(base: string, delivered: StripeEvent | undefined, options: { signed?: boolean; secret?: string; timestamp?: number; payload?: string } = {}): Promise<JsonResult> {
  const payload = options.payload ?? JSON.stringify(delivered, null, 2);
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8', 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
  if (options.signed !== false) headers['Stripe-Signature'] = signature(payload, options);
  return call(base, 'POST', '/api/v1/billing/webhook', { rawBody: payload, headers, origin: null });
}
