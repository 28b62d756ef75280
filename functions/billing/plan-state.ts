/**
 * The rules of a member's plan, with no I/O: which states count as being on the plan, which of
 * two reports about subscriptions wins (webhooks arrive late, twice and out of order), and how a
 * stored plan reads as the answer of GET /api/v1/me/billing and the /account/billing/ page.
 */
import type { BillingConfig } from '../config.ts';
import { ON_PLAN_STATUSES, type BillingState } from '../../src/schemas/billing.ts';

/** A member's plan as stored (functions/billing/plan-store.ts); times are ISO 8601. */
export interface PlanRow {
  account: string;
  customerId: string | null;
  subscriptionId: string | null;
  status: string | null;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAt: string | null;
  /** When Stripe created the event the subscription state was last set from. */
  stateEventAt: string | null;
  updatedAt: string;
}

/** A subscription as one event reports it. */
export interface SubscriptionReport {
  subscriptionId: string;
  status: string;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAt: string | null;
  /** When Stripe created the event (ISO 8601). */
  eventAt: string;
}

/** Stripe states a subscription never leaves. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/**
 * Whether a subscription may still charge the member (anything but ended): what an account's
 * deletion cancels first.
 * @example isLiveSubscription('past_due') // true
 */
export function isLiveSubscription(row: Pick<PlanRow, 'subscriptionId' | 'status'> | undefined): boolean {
  return Boolean(row?.subscriptionId) && !ENDED.has(row?.status ?? '');
}

/**
 * Whether a status is a plan the member may use (`active`, `trialing`).
 * @example isOnPlan('past_due') // false
 */
export function isOnPlan(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && ON_PLAN_STATUSES.includes(status);
}

/**
 * Whether a report replaces the stored state. For the same subscription: an ended one stays
 * ended (Stripe never restarts it), and an older event never overwrites a newer one (events of
 * the same second: the later delivery wins). For another subscription (the member subscribed
 * again): a subscription that ended never replaces one that is still going, whatever the
 * order; otherwise the newer event wins.
 * @example supersedes(undefined, report) // true: nothing stored yet
 */
export function supersedes(stored: Pick<PlanRow, 'subscriptionId' | 'status' | 'stateEventAt'> | undefined, report: SubscriptionReport): boolean {
  if (!stored?.stateEventAt || !stored.subscriptionId) return true;
  const storedEnded = ENDED.has(stored.status ?? '');
  const reportEnded = ENDED.has(report.status);
  const newer = report.eventAt >= stored.stateEventAt;
  if (stored.subscriptionId === report.subscriptionId) return !storedEnded && newer;
  if (storedEnded !== reportEnded) return storedEnded;
  return newer;
}

/**
 * What the member's plan is, in the words of the billing answer.
 * @param billing the site's paid plans (undefined: off, everything is free)
 * @param role an admin may use every feature
 */
export function billingState(billing: BillingConfig | undefined, role: string, row: PlanRow | undefined): BillingState {
  const status = row?.status ?? null;
  const onPlan = isOnPlan(status);
  const ended = ENDED.has(status ?? '');
  const cancelsAt = !ended && row?.cancelAt ? row.cancelAt : null;
  return {
    success: true,
    enabled: billing !== undefined,
    requiredFor: billing?.requiredFor ?? [],
    onPlan,
    unlocked: billing === undefined || role === 'admin' || onPlan,
    status,
    trialEndsAt: status === 'trialing' ? (row?.trialEnd ?? null) : null,
    renewsAt: onPlan && !cancelsAt ? (row?.currentPeriodEnd ?? null) : null,
    cancelsAt,
    trialAvailable: !row?.subscriptionId,
    canManage: Boolean(row?.customerId),
  };
}
