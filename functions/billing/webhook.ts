/**
 * POST /api/v1/billing/webhook: Stripe's events about members' plans (docs/billing.md). No
 * session and no same-origin rule: Stripe's servers call it, and what proves an event came from
 * Stripe is its `Stripe-Signature` over the raw body, checked with the official library against
 * STRIPE_WEBHOOK_SECRET, no older than 5 minutes. Unsigned, wrongly signed and stale deliveries
 * are 400; an event id processed before is answered 200 and not applied again; types this site
 * does not act on are answered 200 and ignored. 404 while paid plans are off.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { readRawBody } from '../http/request-body.ts';
import { EventSchema, planChangeOf } from './stripe-events.ts';
import type { BillingWebhookAnswer } from '../../src/schemas/billing.ts';

/** Stripe's events are a few KB; a subscription with many items some tens. Larger bodies are refused (413) before any signature is computed. */
export const MAX_WEBHOOK_BYTES = 512 * 1024;

export async function postBillingWebhook(request: Request, deps: Pick<Deps, 'config' | 'billing' | 'auth' | 'clock' | 'log'>): Promise<Response> {
  const billing = deps.config.billing;
  if (!deps.billing || !billing) {
    throw new ApiError(404, 'not_found', 'Paid plans are not configured on this site.', { hint: 'Set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID (docs/billing.md).' });
  }
  const body = await readRawBody(request, MAX_WEBHOOK_BYTES);
  const now = deps.clock();
  const parsed = EventSchema.safeParse(await deps.billing.verify(body, request.headers.get('stripe-signature'), now.getTime()));
  if (!parsed.success)
    throw new ApiError(400, 'validation_error', 'The signed body is not a Stripe event (`id`, `type`, `created`, `data.object`).', { hint: 'Send the event exactly as Stripe sent it.' });
  const event = parsed.data;
  const result = await deps.auth.accounts.memberData(({ plans }) => plans.apply(event, planChangeOf(event, billing.priceId), now), 'Recording a billing event');
  deps.log.info('billing_event', { id: event.id, type: event.type, ...result });
  const answer: BillingWebhookAnswer = { success: true, received: event.id, outcome: result.outcome };
  return answerResponse(request, jsonAnswer(200, answer, { 'Cache-Control': 'no-store' }));
}
