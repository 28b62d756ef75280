/**
 * The one place that talks to Stripe, through the official library (loaded on the first billing
 * request: it takes ~400 ms to import, which a site without paid plans never pays): verifying a
 * webhook's `Stripe-Signature`, creating Checkout and customer-portal sessions, and cancelling the
 * subscription of an account being deleted. Its failures
 * become the API's errors here, in this site's words (never the library's).
 */
import type Stripe from 'stripe';
import type { BillingConfig } from '../config.ts';
import { ApiError } from '../http/errors.ts';
import type { Logger } from '../ops/log.ts';
import { TRIAL_DAYS } from '../../src/schemas/billing.ts';

/** Seconds a signed event stays acceptable: Stripe's own default; a copy replayed later is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** What Checkout is asked for. */
export interface CheckoutRequest {
  account: string;
  /** The account's Stripe customer, when it has one (its card and address are reused). */
  customerId: string | null;
  /** Whether the subscription starts with the trial (an account's first one only). */
  trial: boolean;
  successUrl: string;
  cancelUrl: string;
}

export class StripeGateway {
  private readonly config: BillingConfig;
  private readonly log: Logger;
  private client: Promise<Stripe> | undefined;

  constructor(config: BillingConfig, log: Logger) {
    this.config = config;
    this.log = log;
  }

  /**
   * The event a webhook request carries, once its signature holds for the raw `body`.
   * @param nowMs the time to judge the signature's age by
   * @throws ApiError 400 `bad_request`: no signature, a wrong one, one older than the tolerance, or a body that is no JSON event
   */
  async verify(body: Buffer, signature: string | null, nowMs: number): Promise<unknown> {
    if (!signature) throw refused('The request has no Stripe-Signature header.', 'Only Stripe can call this endpoint: it signs each event with the webhook secret.');
    const stripe = await this.stripe();
    try {
      return await stripe.webhooks.constructEventAsync(new Uint8Array(body), signature, this.config.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs);
    } catch (error) {
      if (error instanceof SyntaxError) throw refused('The signed body is not a JSON event.', 'Send the event exactly as Stripe sent it.');
      if (/tolerance/i.test((error as Error).message))
        throw refused(`The Stripe-Signature timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds old.`, 'A delivery is accepted only while fresh; Stripe signs every retry anew.');
      throw refused('The Stripe-Signature does not match the body.', "Check STRIPE_WEBHOOK_SECRET against the endpoint's signing secret in Stripe's dashboard.");
    }
  }

  /**
   * A Checkout session in subscription mode for the plan's price.
   * @returns the Stripe-hosted page to send the member to
   */
  async checkout(request: CheckoutRequest): Promise<string> {
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'subscription',
      line_items: [{ price: this.config.priceId, quantity: 1 }],
      client_reference_id: request.account,
      // Subscription events then name the account themselves, whichever arrives first.
      subscription_data: { ...(request.trial ? { trial_period_days: TRIAL_DAYS } : {}), metadata: { account: request.account } },
      metadata: { account: request.account },
      ...(request.customerId ? { customer: request.customerId } : { customer_email: request.account }),
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    };
    const session = await this.call('checkout', async (stripe) => stripe.checkout.sessions.create(params));
    if (!session.url) throw unavailable();
    return session.url;
  }

  /**
   * A customer-portal session (payment method, invoices, cancelling) for the account's customer.
   * @returns the Stripe-hosted page to send the member to
   */
  async portal(customerId: string, returnUrl: string): Promise<string> {
    return (await this.call('portal', async (stripe) => stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }))).url;
  }

  /**
   * Cancel a subscription now (the account that pays for it is being deleted). One that Stripe
   * no longer has is cancelled already.
   */
  async cancel(subscriptionId: string): Promise<void> {
    await this.call('cancel', (stripe) =>
      stripe.subscriptions.cancel(subscriptionId).catch((error: unknown) => {
        if ((error as { code?: string }).code === 'resource_missing') return undefined;
        throw error;
      }),
    );
  }

  // --- internal ---

  private stripe(): Promise<Stripe> {
    this.client ??= import('stripe').then(
      ({ default: StripeClient }) => new StripeClient(this.config.secretKey, { ...endpointOf(this.config.apiUrl), maxNetworkRetries: 2, timeout: 20_000, telemetry: false }),
    );
    return this.client;
  }

  /** A call to the API; a failure is 503 for the member and a log line for the operator (an error when it is the configuration's). */
  private async call<T>(what: string, work: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = await this.stripe();
    try {
      return await work(stripe);
    } catch (error) {
      const { type, code, statusCode } = error as { type?: string; code?: string; statusCode?: number };
      const fields = { call: what, type: type ?? 'unknown', code, status: statusCode };
      if (type && CONFIGURATION_ERRORS.has(type)) this.log.error('billing_misconfigured', fields);
      else this.log.warn('billing_unavailable', fields);
      throw unavailable();
    }
  }
}

/**
 * Where Stripe's hosted pages (Checkout, the customer portal) are: what the billing page's forms
 * end at, so its Content-Security-Policy names them; a stand-in at STRIPE_API_URL serves its own.
 * @example stripePageOrigins({ apiUrl: undefined, … }) // ['https://checkout.stripe.com', 'https://billing.stripe.com']
 */
export function stripePageOrigins(config: Pick<BillingConfig, 'apiUrl'>): string[] {
  return ['https://checkout.stripe.com', 'https://billing.stripe.com', ...(config.apiUrl ? [new URL(config.apiUrl).origin] : [])];
}

// --- internal ---

/** Refusals that only a change of settings (a wrong key or price) ends; the others pass. */
const CONFIGURATION_ERRORS = new Set(['StripeInvalidRequestError', 'StripeAuthenticationError', 'StripePermissionError']);

/** STRIPE_API_URL as the library's `protocol`, `host` and `port` (nothing: api.stripe.com). */
function endpointOf(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'protocol' | 'host' | 'port'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || (protocol === 'http' ? 80 : 443) };
}

function refused(message: string, hint: string): ApiError {
  return new ApiError(400, 'bad_request', message, { hint });
}

function unavailable(): ApiError {
  return new ApiError(503, 'service_unavailable', 'The payment provider cannot be reached just now.', { hint: 'Nothing was charged; try again in a minute.', headers: { 'Retry-After': '60' } });
}
