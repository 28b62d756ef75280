/**
 * Paid plans on the embedded SQLite database (the default): the shared suite
 * (tests/helpers/billing-cases.ts) over a real server configured for Stripe and pointed at a
 * recording server in place of Stripe's API; then the default with nothing configured (members
 * are free: no webhook, no checkout, nothing gated), and what removing an account does to its plan.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databaseFile, openAccountStore } from '../../functions/auth/account-store.ts';
import { openDatabase } from '../../functions/db/database.ts';
import { billingSuite } from '../helpers/billing-cases.ts';
import { billingEnv, deliver, subscriptionEvent } from '../helpers/stripe-events.ts';
import { startStripeRecorder, type StripeRecorder } from '../helpers/stripe-recorder.ts';
import { addAccount, ADMIN, call, expectError, login, MEMBER, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let recorder: StripeRecorder;
let server: WriteServer;
beforeAll(async () => {
  recorder = await startStripeRecorder();
  server = await startWriteServer([ADMIN, MEMBER], billingEnv(recorder.url));
});
afterAll(async () => {
  if (server) expect(takeErrors(server.server)).toEqual([]);
  await server?.stop();
  await recorder?.stop();
});

billingSuite({
  env: () => server,
  addAccount: (account) => addAccount(server.dataDir, account),
  database: () => openDatabase({ file: databaseFile(server.dataDir) }),
  recorder: () => recorder,
});

test("only the billing page may send its forms on to Stripe's pages (its Content-Security-Policy), every other answer keeps form-action 'self'", async () => {
  const formAction = async (path: string) => /form-action ([^;]*)/.exec((await fetch(`${server.url}${path}`)).headers.get('content-security-policy') ?? '')?.[1];
  expect(await formAction('/account/billing/')).toBe(`'self' https://checkout.stripe.com https://billing.stripe.com ${recorder.url}`);
  expect(await formAction('/account/billing')).toBe(`'self' https://checkout.stripe.com https://billing.stripe.com ${recorder.url}`);
  for (const path of ['/account/saved/', '/deals/', '/api/v1/me/billing', '/api/v1/account/billing/']) expect(await formAction(path), path).toBe("'self'");
});

describe('paid plans off (the default)', () => {
  let free: WriteServer;
  beforeAll(async () => {
    free = await startWriteServer([ADMIN, MEMBER]);
  });
  afterAll(async () => {
    if (free) expect(takeErrors(free.server)).toEqual([]);
    await free?.stop();
  });

  test('members are free: no webhook and no checkout (404), the plan says so, saving needs nothing', async () => {
    const event = subscriptionEvent('created', { id: 'sub_x', customer: 'cus_x', status: 'active', account: MEMBER.email });
    const hook = expectError(await deliver(free.url, event), 404, 'not_found');
    expect(hook.hint).toContain('STRIPE_SECRET_KEY');
    const cookie = await login(free.url, MEMBER);
    expectError(await call(free.url, 'POST', '/api/v1/me/billing/checkout', { cookie }), 404, 'not_found');
    expectError(await call(free.url, 'POST', '/api/v1/me/billing/portal', { cookie }), 404, 'not_found');
    const plan = await call(free.url, 'GET', '/api/v1/me/billing', { cookie });
    expect(plan.body).toEqual({
      success: true,
      enabled: false,
      requiredFor: [],
      onPlan: false,
      unlocked: true,
      status: null,
      trialEndsAt: null,
      renewsAt: null,
      cancelsAt: null,
      trialAvailable: true,
      canManage: false,
    });
    expect((await call(free.url, 'POST', '/api/v1/me/saved', { cookie, body: { kind: 'deal', id: 'd-aws00001' } })).status).toBe(200);
  });
});

test("removing an account removes its plan (the database's cascade); event ids are kept apart from accounts", async () => {
  const store = await openAccountStore({ dataDir: join(server.dataDir, 'cascade') });
  try {
    await store.put({ email: 'gone@example.com', role: 'member' });
    const report = { subscriptionId: 'sub_gone', status: 'active', trialEnd: null, currentPeriodEnd: null, cancelAt: null, eventAt: '2026-11-01T00:00:00.000Z' };
    const change = { kind: 'subscription' as const, account: 'gone@example.com', customerId: 'cus_gone', report };
    expect(await store.plans.apply({ id: 'evt_gone_1', type: 'customer.subscription.created' }, change, new Date())).toEqual({ outcome: 'applied', account: 'gone@example.com' });
    expect((await store.plans.find('gone@example.com'))?.status).toBe('active');
    await store.remove('gone@example.com');
    await store.put({ email: 'gone@example.com', role: 'member' });
    expect(await store.plans.find('gone@example.com')).toBeUndefined();
    expect(await store.plans.apply({ id: 'evt_gone_1', type: 'customer.subscription.created' }, change, new Date())).toEqual({ outcome: 'duplicate' });
    // Ids older than the retention are forgotten on the next event.
    const later = new Date(Date.now() + 31 * 86_400_000);
    expect((await store.plans.apply({ id: 'evt_gone_2', type: 'invoice.paid' }, { kind: 'ignore', reason: 'unhandled_type' }, later)).outcome).toBe('ignored');
    expect((await store.plans.apply({ id: 'evt_gone_1', type: 'customer.subscription.created' }, change, later)).outcome).toBe('applied');
  } finally {
    await store.close();
  }
});
