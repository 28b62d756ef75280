/**
 * What a verified Stripe event means for a member's plan, with no I/O: a completed Checkout links
 * the member's account (its `client_reference_id`) to a Stripe customer; a subscription created,
 * updated or deleted reports the plan's state. Only the fields read are checked, so an event of
 * another API version with the same fields is read alike (a period end on the subscription, as
 * before 2025, or on its items, as since). Anything else is ignored with a reason.
 */
import * as z from 'zod';
import { ApiError } from '../http/errors.ts';
import { normalizeEmail } from '../auth/users.ts';
import type { PlanChange } from './plan-store.ts';

/** The event types acted on; every other type is answered 200 and ignored. */
export const HANDLED_EVENTS = ['checkout.session.completed', 'customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted'] as const;

/** The envelope of every event. */
export const EventSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  created: z.number().int().nonnegative(),
  data: z.looseObject({ object: z.looseObject({}) }),
});
export type StripeEventEnvelope = z.infer<typeof EventSchema>;

/**
 * The plan change an event asks for.
 * @param priceId the plan's price: a subscription to anything else sold through the same Stripe account is not the plan
 * @throws ApiError 400 `validation_error` when a handled event lacks a field it needs
 * @example planChangeOf(event, 'price_123').kind // 'subscription'
 */
export function planChangeOf(event: StripeEventEnvelope, priceId: string): PlanChange {
  const eventAt = new Date(event.created * 1000).toISOString();
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = shaped(CheckoutSessionSchema, event);
      if (session.mode !== 'subscription') return { kind: 'ignore', reason: 'not_a_subscription' };
      const customerId = idOf(session.customer);
      if (!session.client_reference_id || !customerId) return { kind: 'ignore', reason: 'no_account' };
      return { kind: 'customer', account: normalizeEmail(session.client_reference_id), customerId, subscriptionId: idOf(session.subscription) };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = shaped(SubscriptionSchema, event);
      const items = subscription.items.data.filter((item) => item.price.id === priceId);
      if (items.length === 0) return { kind: 'ignore', reason: 'another_price' };
      const periodEnds = items.map((item) => item.current_period_end ?? subscription.current_period_end).filter((end): end is number => typeof end === 'number');
      const currentPeriodEnd = periodEnds.length > 0 ? Math.max(...periodEnds) : null;
      const cancelAt = subscription.cancel_at ?? (subscription.cancel_at_period_end ? currentPeriodEnd : null);
      const account = subscription.metadata?.account;
      return {
        kind: 'subscription',
        account: account ? normalizeEmail(account) : null,
        customerId: idOf(subscription.customer) ?? '',
        report: {
          subscriptionId: subscription.id,
          status: subscription.status,
          trialEnd: iso(subscription.trial_end),
          currentPeriodEnd: iso(currentPeriodEnd),
          cancelAt: iso(cancelAt),
          eventAt,
        },
      };
    }
    default:
      return { kind: 'ignore', reason: 'unhandled_type' };
  }
}

// --- internal ---

/** A Stripe reference: an id, or the object expanded in its place. */
const reference = z
  .union([z.string().min(1), z.looseObject({ id: z.string().min(1) })])
  .nullable()
  .optional();
const time = z.number().int().nullable().optional();

const CheckoutSessionSchema = z.looseObject({
  mode: z.string(),
  client_reference_id: z.string().nullable().optional(),
  customer: reference,
  subscription: reference,
});

const SubscriptionSchema = z.looseObject({
  id: z.string().min(1),
  customer: z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]),
  status: z.string().min(1),
  trial_end: time,
  cancel_at: time,
  cancel_at_period_end: z.boolean().optional(),
  current_period_end: time,
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  items: z.looseObject({
    data: z.array(z.looseObject({ price: z.looseObject({ id: z.string() }), current_period_end: time })),
  }),
});

/** The event's object in `schema`'s shape, or a 400 naming the first field that is not. */
function shaped<S extends z.ZodType>(schema: S, event: StripeEventEnvelope): z.output<S> {
  const parsed = schema.safeParse(event.data.object);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = ['data', 'object', ...(issue?.path ?? [])].join('.');
  throw new ApiError(400, 'validation_error', `The ${event.type} event has no usable \`${field}\`: ${issue?.message ?? 'invalid'}.`, {
    hint: "Send the event as Stripe sends it (the webhook endpoint's API version must carry this field).",
  });
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function iso(seconds: number | null | undefined): string | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;
}
