/**
 * The rules of a member's plan, as pure functions (functions/billing/plan-state.ts and
 * stripe-events.ts): which report wins when webhooks arrive out of order, how a stored plan reads,
 * and what an event of this or an older Stripe API version means.
 */
import { describe, expect, test } from 'vitest';
import { billingState, supersedes, type PlanRow, type SubscriptionReport } from '../../functions/billing/plan-state.ts';
import { planChangeOf } from '../../functions/billing/stripe-events.ts';
import { ApiError } from '../../functions/http/errors.ts';
import type { BillingConfig } from '../../functions/config.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();
const report = (patch: Partial<SubscriptionReport>): SubscriptionReport => ({
  subscriptionId: 'sub_a',
  status: 'active',
  trialEnd: null,
  currentPeriodEnd: null,
  cancelAt: null,
  eventAt: at(10),
  ...patch,
});
const stored = (subscriptionId: string, status: string, minute: number) => ({ subscriptionId, status, stateEventAt: at(minute) });

describe('supersedes: which report wins', () => {
  test('nothing stored (or only a customer linked): any report', () => {
    expect(supersedes(undefined, report({}))).toBe(true);
    expect(supersedes({ subscriptionId: 'sub_a', status: null, stateEventAt: null }, report({}))).toBe(true);
  });

  test('the same subscription: the newer event, ties to the later delivery; an ended one stays ended', () => {
    expect(supersedes(stored('sub_a', 'trialing', 10), report({ eventAt: at(11) }))).toBe(true);
    expect(supersedes(stored('sub_a', 'trialing', 10), report({ eventAt: at(10) }))).toBe(true);
    expect(supersedes(stored('sub_a', 'active', 10), report({ status: 'trialing', eventAt: at(9) }))).toBe(false);
    expect(supersedes(stored('sub_a', 'canceled', 10), report({ status: 'active', eventAt: at(20) }))).toBe(false);
    expect(supersedes(stored('sub_a', 'incomplete_expired', 10), report({ status: 'active', eventAt: at(20) }))).toBe(false);
  });

  test('another subscription: an ended one never replaces a live one; a live one replaces an ended one; otherwise the newer', () => {
    expect(supersedes(stored('sub_b', 'active', 10), report({ subscriptionId: 'sub_a', status: 'canceled', eventAt: at(30) }))).toBe(false);
    expect(supersedes(stored('sub_a', 'canceled', 30), report({ subscriptionId: 'sub_b', status: 'active', eventAt: at(10) }))).toBe(true);
    expect(supersedes(stored('sub_a', 'active', 10), report({ subscriptionId: 'sub_b', status: 'trialing', eventAt: at(11) }))).toBe(true);
    expect(supersedes(stored('sub_a', 'active', 10), report({ subscriptionId: 'sub_b', status: 'trialing', eventAt: at(9) }))).toBe(false);
  });
});

describe('billingState: the plan in the words of the answer', () => {
  const billing: BillingConfig = { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', priceId: 'price_x', requiredFor: ['saved'], apiUrl: undefined };
  const row = (patch: Partial<PlanRow>): PlanRow => ({
    account: 'mel@example.com',
    customerId: 'cus_1',
    subscriptionId: 'sub_1',
    status: 'active',
    trialEnd: null,
    currentPeriodEnd: at(50),
    cancelAt: null,
    stateEventAt: at(1),
    updatedAt: at(1),
    ...patch,
  });

  test('paid plans off: everything unlocked, nothing to manage', () => {
    expect(billingState(undefined, 'member', undefined)).toMatchObject({ enabled: false, requiredFor: [], onPlan: false, unlocked: true, trialAvailable: true, canManage: false });
  });

  test('trialing, active, cancelling, past due, ended; an admin is unlocked without a plan', () => {
    expect(billingState(billing, 'member', undefined)).toMatchObject({ enabled: true, onPlan: false, unlocked: false, status: null, trialAvailable: true });
    expect(billingState(billing, 'admin', undefined)).toMatchObject({ onPlan: false, unlocked: true });
    expect(billingState(billing, 'member', row({ status: 'trialing', trialEnd: at(40), currentPeriodEnd: at(40) }))).toMatchObject({
      onPlan: true,
      trialEndsAt: at(40),
      renewsAt: at(40),
      cancelsAt: null,
      trialAvailable: false,
    });
    expect(billingState(billing, 'member', row({}))).toMatchObject({ onPlan: true, unlocked: true, trialEndsAt: null, renewsAt: at(50) });
    expect(billingState(billing, 'member', row({ cancelAt: at(50) }))).toMatchObject({ onPlan: true, renewsAt: null, cancelsAt: at(50) });
    expect(billingState(billing, 'member', row({ status: 'past_due' }))).toMatchObject({ onPlan: false, unlocked: false, renewsAt: null, canManage: true });
    expect(billingState(billing, 'member', row({ status: 'canceled', cancelAt: at(50) }))).toMatchObject({ onPlan: false, cancelsAt: null, renewsAt: null });
  });
});

describe('planChangeOf: what an event means', () => {
  const envelope = (type: string, object: Record<string, unknown>) => ({ id: 'evt_1', type, created: 1_795_000_000, data: { object } });
  const subscription = {
    id: 'sub_1',
    customer: 'cus_1',
    status: 'trialing',
    trial_end: 1_797_592_000,
    cancel_at: null,
    cancel_at_period_end: false,
    metadata: { account: 'Mel@Example.com' },
    items: { data: [{ price: { id: 'price_x' }, current_period_end: 1_797_592_000 }] },
  };

  test('a subscription of this API version: its period end on the item, the account from metadata (normalised)', () => {
    expect(planChangeOf(envelope('customer.subscription.created', subscription), 'price_x')).toEqual({
      kind: 'subscription',
      account: 'mel@example.com',
      customerId: 'cus_1',
      report: { subscriptionId: 'sub_1', status: 'trialing', trialEnd: '2026-12-18T11:06:40.000Z', currentPeriodEnd: '2026-12-18T11:06:40.000Z', cancelAt: null, eventAt: '2026-11-18T11:06:40.000Z' },
    });
  });

  test('an older API version (period end on the subscription, customer expanded), cancelled at period end', () => {
    const older = { ...subscription, customer: { id: 'cus_1', object: 'customer' }, current_period_end: 1_797_000_000, cancel_at_period_end: true, items: { data: [{ price: { id: 'price_x' } }] } };
    const change = planChangeOf(envelope('customer.subscription.updated', older), 'price_x');
    expect(change).toMatchObject({ kind: 'subscription', customerId: 'cus_1', report: { currentPeriodEnd: '2026-12-11T14:40:00.000Z', cancelAt: '2026-12-11T14:40:00.000Z' } });
  });

  test('ignored: other types, other prices, Checkout in payment mode or without an account', () => {
    expect(planChangeOf(envelope('invoice.paid', {}), 'price_x')).toEqual({ kind: 'ignore', reason: 'unhandled_type' });
    expect(planChangeOf(envelope('customer.subscription.created', subscription), 'price_other')).toEqual({ kind: 'ignore', reason: 'another_price' });
    expect(planChangeOf(envelope('checkout.session.completed', { mode: 'payment', client_reference_id: 'a@b.c', customer: 'cus_1' }), 'price_x')).toEqual({
      kind: 'ignore',
      reason: 'not_a_subscription',
    });
    expect(planChangeOf(envelope('checkout.session.completed', { mode: 'subscription', client_reference_id: null, customer: 'cus_1' }), 'price_x')).toEqual({ kind: 'ignore', reason: 'no_account' });
    expect(planChangeOf(envelope('checkout.session.completed', { mode: 'subscription', client_reference_id: 'A@b.c', customer: 'cus_1', subscription: 'sub_1' }), 'price_x')).toEqual({
      kind: 'customer',
      account: 'a@b.c',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
    });
  });

  test('a handled event without a field it needs is a 400 naming the field', () => {
    const broken = () => planChangeOf(envelope('customer.subscription.deleted', { ...subscription, status: undefined }), 'price_x');
    expect(broken).toThrow(ApiError);
    expect(broken).toThrow('The customer.subscription.deleted event has no usable `data.object.status`: Invalid input: expected string, received undefined.');
  });
});
