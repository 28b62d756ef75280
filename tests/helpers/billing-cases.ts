/**
 * What paid plans must do over real HTTP, as one suite run on each database engine
 * (tests/integration/billing.test.ts: SQLite; billing-postgres.test.ts: PostgreSQL), with the
 * server configured for Stripe (PLAN_REQUIRED_FOR=saved,submissions) and pointed at a recording server
 * (tests/helpers/stripe-recorder.ts) in place of Stripe's API.
 *
 * The webhook, with events signed by the official library's test helper: unsigned, wrongly
 * signed, stale and tampered deliveries are 400 and change nothing; a replayed event id is 200
 * and not applied again; older events arriving late never overwrite newer state; a deleted
 * subscription ends the plan; a dead subscription never replaces a live one. The gate: saving is
 * 402 before and 200 after a signed `customer.subscription.created`; admins always pass. Checkout
 * and the portal: the request our code sends Stripe (mode, trial days, client_reference_id,
 * price, URLs) as the recording server saw it, and the redirect to the URL it answered.
 */
import { describe, expect, test } from 'vitest';
import type { Database } from '../../functions/db/database.ts';
import { checkoutCompleted, deliver, event, now, signature, subscriptionEvent, TEST_BILLING } from './stripe-events.ts';
import type { StripeRecorder } from './stripe-recorder.ts';
import { ADMIN, call, callFrom, expectError, login, submissionBody, takeErrors, type JsonResult, type TestAccount, type WriteServer } from './writes-harness.ts';

export interface BillingBacking {
  /** The server, with ADMIN and MEMBER in its database and paid plans on (billingEnv). */
  env: () => WriteServer;
  /** Add an account where the server reads them (its DATABASE_URL too). */
  addAccount: (account: TestAccount) => void;
  /** A connection to the server's database. */
  database: () => Database;
  recorder: () => StripeRecorder;
}

const FORM = 'application/x-www-form-urlencoded';
const AWS = 'd-aws00001';
const DAY = 86_400;

interface Plan {
  enabled: boolean;
  requiredFor: string[];
  onPlan: boolean;
  unlocked: boolean;
  status: string | null;
  trialEndsAt: string | null;
  renewsAt: string | null;
  cancelsAt: string | null;
  trialAvailable: boolean;
  canManage: boolean;
}

export function billingSuite(backing: BillingBacking): void {
  let serial = 0;
  /** A fresh confirmed member for each test, with its own ids at Stripe. */
  async function member() {
    const n = ++serial;
    const account: TestAccount = { email: `payer${n}-${Date.now()}@example.com`, role: 'member', password: 'payer-password-1' };
    backing.addAccount(account);
    const { url } = backing.env();
    const cookie = await login(url, account);
    const plan = async (): Promise<Plan> => {
      const answer = await call(url, 'GET', '/api/v1/me/billing', { cookie });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      return answer.body as Plan;
    };
    const save = (id = AWS) => call(url, 'POST', '/api/v1/me/saved', { cookie, body: { kind: 'deal', id } });
    const list = () => call(url, 'GET', '/api/v1/me/saved', { cookie });
    const form = (path: string, fields: Record<string, string> = {}, withCookie: string | undefined = cookie) =>
      fetch(`${url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': FORM, Origin: url, ...(withCookie ? { Cookie: withCookie } : {}) }, body: new URLSearchParams(fields) });
    return { email: account.email, cookie, customer: `cus_test${n}x${Date.now()}`, subscription: `sub_test${n}x${Date.now()}`, plan, save, list, form };
  }
  const deliverOk = async (delivered: Parameters<typeof deliver>[1], outcome: string) => {
    const answer = await deliver(backing.env().url, delivered);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ success: true, received: delivered?.id, outcome });
    return answer;
  };
  const eventRows = async (id: string): Promise<number> => {
    const db = backing.database();
    try {
      return (await db.all('SELECT event_id FROM billing_events WHERE event_id = $1', [id])).length;
    } finally {
      await db.close();
    }
  };

  describe('paid plans: the webhook', () => {
    test('unsigned, wrongly signed, stale, tampered and unparsable deliveries are 400 and change nothing; a huge body is 413', async () => {
      const m = await member();
      const created = subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'trialing', account: m.email, trialEnd: now() + 30 * DAY });
      const { url } = backing.env();
      const unsigned = expectError(await deliver(url, created, { signed: false }), 400, 'bad_request');
      expect(unsigned.error).toBe('The request has no Stripe-Signature header.');
      const wrong = expectError(await deliver(url, created, { secret: 'whsec_someoneelsessecret000000' }), 400, 'bad_request');
      expect(wrong.error).toBe('The Stripe-Signature does not match the body.');
      const stale = expectError(await deliver(url, created, { timestamp: now() - 301 }), 400, 'bad_request');
      expect(stale.error).toBe('The Stripe-Signature timestamp is more than 300 seconds old.');
      // Signed for one body, sent with another: the active status was not what Stripe signed.
      const payload = JSON.stringify(created);
      const tampered = await call(url, 'POST', '/api/v1/billing/webhook', {
        rawBody: payload.replace('"trialing"', '"active"'),
        headers: { 'Stripe-Signature': signature(payload) },
        origin: null,
      });
      expectError(tampered, 400, 'bad_request');
      expectError(await deliver(url, undefined, { payload: '{"id": "evt_x", "type": ' }), 400, 'bad_request');
      expectError(await deliver(url, undefined, { payload: '{"hello": "world"}' }), 400, 'validation_error');
      // Signed, but the subscription has no items: named, not a 500.
      const hollow = event('customer.subscription.updated', { id: m.subscription, customer: m.customer, status: 'active' });
      expect(expectError(await deliver(url, hollow), 400, 'validation_error').error).toMatch(/`data\.object\.items`/);
      expectError(await deliver(url, undefined, { payload: `{"pad": "${'x'.repeat(600 * 1024)}"}` }), 413, 'bad_request');
      expect(await eventRows(created.id)).toBe(0);
      expect((await m.plan()).status).toBeNull();
      // A GET is no delivery.
      expectError(await call(url, 'GET', '/api/v1/billing/webhook'), 405, 'method_not_allowed');
    });

    test('a member without a plan gets 402 on saving; a signed customer.subscription.created puts them on the trial and saving works; removing never needs a plan', async () => {
      const m = await member();
      const before = await m.plan();
      expect(before).toMatchObject({ enabled: true, requiredFor: ['saved', 'submissions'], onPlan: false, unlocked: false, status: null, trialAvailable: true, canManage: false });
      const refused = expectError(await m.save(), 402, 'forbidden');
      expect(refused.error).toBe('Saving deals needs a plan on this site.');
      expect(refused.hint).toContain('/account/billing/');
      expectError(await m.list(), 402, 'forbidden');
      // A form post (no JavaScript) goes to the billing page, saying what asked.
      const formSave = await m.form('/api/v1/me/saved', { kind: 'deal', id: AWS, next: '/deals/' });
      expect(formSave.status).toBe(303);
      expect(formSave.headers.get('location')).toBe('/account/billing/?needed=saved');
      // Removing is no use of the feature: allowed, so a list is always the member's to empty.
      expect((await call(backing.env().url, 'POST', '/api/v1/me/saved', { cookie: m.cookie, body: { kind: 'deal', id: AWS, action: 'remove' } })).status).toBe(200);

      const trialEnd = now() + 30 * DAY;
      await deliverOk(subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'trialing', account: m.email, trialEnd, periodEnd: trialEnd }), 'applied');
      const after = await m.plan();
      expect(after).toMatchObject({ onPlan: true, unlocked: true, status: 'trialing', trialAvailable: false, canManage: true });
      expect(after.trialEndsAt).toBe(new Date(trialEnd * 1000).toISOString());
      expect(after.renewsAt).toBe(new Date(trialEnd * 1000).toISOString());
      expect((await m.save()).status).toBe(200);
      expect((await m.list()).status).toBe(200);

      // An admin never needs a plan.
      const admin = await login(backing.env().url, ADMIN);
      expect((await call(backing.env().url, 'POST', '/api/v1/me/saved', { cookie: admin, body: { kind: 'deal', id: AWS } })).status).toBe(200);
      expect(((await call(backing.env().url, 'GET', '/api/v1/me/billing', { cookie: admin })).body as Plan).unlocked).toBe(true);
    });

    test('submissions: without a plan a member still submits, unlinked; on the plan the submission shows on the dashboard', async () => {
      const m = await member();
      const { url } = backing.env();
      const word = `Planned${serial}x${Date.now()}`;
      const submit = (n: number) => callFrom(`127.0.90.${serial * 2 + n}`, url, 'POST', '/api/v1/submit-deal', { cookie: m.cookie, body: submissionBody(word, n) });
      const mine = async () => ((await call(url, 'GET', '/api/v1/me/dashboard', { cookie: m.cookie })).body as { submissions: Array<{ id: string }> }).submissions.map((s) => s.id);
      const before = await submit(1);
      expect(before.status, before.text).toBe(201);
      expect(await mine()).toEqual([]);
      await deliverOk(subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'active', account: m.email }), 'applied');
      const after = await submit(2);
      expect(after.status, after.text).toBe(201);
      expect(await mine()).toEqual([(after.body as { id: string }).id]);
    });

    test('deleting the account cancels a live subscription at Stripe first; Stripe failing refuses the deletion and keeps everything; an ended or missing one is no obstacle', async () => {
      const { url } = backing.env();
      const recorded = (subscription: string) => backing.recorder().requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscription}`);
      const remove = (who: { cookie: string }) => call(url, 'POST', '/api/v1/me/delete', { cookie: who.cookie, body: { password: 'payer-password-1' } });

      const paying = await member();
      await deliverOk(subscriptionEvent('created', { id: paying.subscription, customer: paying.customer, status: 'past_due', account: paying.email }), 'applied');
      // The library tries 3 times (maxNetworkRetries 2): Stripe failing is 3 failures.
      const stripeDown = () => {
        for (let i = 0; i < 3; i++) backing.recorder().failNext(500, { type: 'api_error' });
      };
      stripeDown();
      const refused = expectError(await remove(paying), 503, 'service_unavailable');
      expect(refused.error).toMatch(/nothing was deleted/);
      expect((await paying.plan()).status).toBe('past_due');
      // The form comes back to the page, which words the reason.
      stripeDown();
      const form = await paying.form('/api/v1/me/delete', { password: 'payer-password-1' });
      expect(form.status).toBe(303);
      expect(form.headers.get('location')).toBe('/account/privacy/?error=billing#delete');
      const deleted = await remove(paying);
      expect(deleted.status, deleted.text).toBe(200);
      expect(recorded(paying.subscription)).toHaveLength(7);
      expectError(await call(url, 'GET', '/api/v1/me/billing', { cookie: paying.cookie }), 401, 'unauthorized');

      // Ended already: nothing to cancel. Gone at Stripe: counts as cancelled.
      const ended = await member();
      await deliverOk(subscriptionEvent('deleted', { id: ended.subscription, customer: ended.customer, status: 'canceled', account: ended.email }), 'applied');
      expect((await remove(ended)).status).toBe(200);
      expect(recorded(ended.subscription)).toEqual([]);
      const missing = await member();
      const gone = `sub_missing${serial}x${Date.now()}`;
      await deliverOk(subscriptionEvent('created', { id: gone, customer: missing.customer, status: 'active', account: missing.email }), 'applied');
      expect((await remove(missing)).status).toBe(200);
      expect(recorded(gone)).toHaveLength(1);
    });

    test('a replayed event id is answered 200 and not applied again, even re-signed with other content', async () => {
      const m = await member();
      const created = subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'active', account: m.email });
      await deliverOk(created, 'applied');
      await deliverOk(created, 'duplicate');
      // The same id carrying another state (re-signed by someone holding the secret, or a bug): the first delivery stands.
      const forged = { ...created, data: { object: { ...created.data.object, status: 'canceled' } } };
      await deliverOk(forged, 'duplicate');
      expect(await eventRows(created.id)).toBe(1);
      expect((await m.plan()).status).toBe('active');
    });

    test('out of order: an older event arriving late never overwrites a newer state; deleted ends the plan for good', async () => {
      const m = await member();
      const t = now() - 600;
      const base = { id: m.subscription, customer: m.customer, account: m.email };
      const created = subscriptionEvent('created', { ...base, status: 'trialing', trialEnd: t + 30 * DAY, created: t });
      const activated = subscriptionEvent('updated', { ...base, status: 'active', created: t + 20, periodEnd: t + 60 * DAY });
      const deleted = subscriptionEvent('deleted', { ...base, status: 'canceled', created: t + 40 });
      const lateUpdate = subscriptionEvent('updated', { ...base, status: 'active', created: t + 30 });

      await deliverOk(activated, 'applied');
      await deliverOk(created, 'superseded');
      expect((await m.plan()).status).toBe('active');
      expect((await m.save()).status).toBe(200);

      await deliverOk(deleted, 'applied');
      const ended = await m.plan();
      expect(ended).toMatchObject({ status: 'canceled', onPlan: false, unlocked: false, renewsAt: null, trialAvailable: false, canManage: true });
      expectError(await m.save(), 402, 'forbidden');
      // A late update of the same subscription, even one newer than nothing stored: canceled is final.
      await deliverOk(lateUpdate, 'superseded');
      await deliverOk(subscriptionEvent('updated', { ...base, status: 'active', created: t + 50 }), 'superseded');
      expectError(await m.save(), 402, 'forbidden');
    });

    test('subscribing again: the new subscription counts, and a late deletion of the old one does not end it', async () => {
      const m = await member();
      const t = now() - 600;
      const old = { id: m.subscription, customer: m.customer, account: m.email };
      await deliverOk(subscriptionEvent('created', { ...old, status: 'active', created: t }), 'applied');
      const renewed = { id: `${m.subscription}b`, customer: m.customer, account: m.email };
      await deliverOk(subscriptionEvent('created', { ...renewed, status: 'active', created: t + 100 }), 'applied');
      // The old one's deletion, sent later than the new one was created: a dead subscription never replaces a live one.
      await deliverOk(subscriptionEvent('deleted', { ...old, status: 'canceled', created: t + 200 }), 'superseded');
      expect((await m.plan()).status).toBe('active');
      expect((await m.save()).status).toBe(200);
      // Cancelled at the period's end: still on the plan, and the page can say until when.
      const periodEnd = t + 30 * DAY;
      await deliverOk(subscriptionEvent('updated', { ...renewed, status: 'active', created: t + 300, periodEnd, cancelAtPeriodEnd: true }), 'applied');
      expect(await m.plan()).toMatchObject({ onPlan: true, renewsAt: null, cancelsAt: new Date(periodEnd * 1000).toISOString() });
    });

    test('checkout.session.completed links the customer to the account; a subscription made elsewhere is found by its customer; other types, prices and accounts are ignored', async () => {
      const m = await member();
      await deliverOk(checkoutCompleted({ account: m.email.toUpperCase(), customer: m.customer, subscription: m.subscription }), 'applied');
      expect(await m.plan()).toMatchObject({ canManage: true, status: null, onPlan: false, trialAvailable: false });
      // No metadata (made in Stripe's dashboard): its customer names the account.
      await deliverOk(subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'active' }), 'applied');
      expect((await m.plan()).onPlan).toBe(true);

      await deliverOk(event('invoice.paid', { id: 'in_test_1', object: 'invoice', customer: m.customer }), 'ignored');
      await deliverOk(subscriptionEvent('updated', { id: m.subscription, customer: m.customer, status: 'canceled', account: m.email, price: 'price_somethingelse' }), 'ignored');
      await deliverOk(subscriptionEvent('created', { id: 'sub_stranger', customer: 'cus_stranger', status: 'active', account: 'nobody@example.com' }), 'ignored');
      await deliverOk(checkoutCompleted({ account: 'nobody@example.com', customer: 'cus_stranger', subscription: 'sub_stranger' }), 'ignored');
      await deliverOk(checkoutCompleted({ account: m.email, customer: m.customer, subscription: m.subscription, mode: 'payment' }), 'ignored');
      expect((await m.plan()).status).toBe('active');
      expect(takeErrors(backing.env().server)).toEqual([]);
    });
  });

  describe('paid plans: Checkout and the customer portal (against the recording server)', () => {
    test('checkout: the request Stripe gets (subscription mode, the price, a 30-day trial, the account, URLs back here); JSON gets the url, a form a 303 to it', async () => {
      const m = await member();
      const { url } = backing.env();
      const recorder = backing.recorder();
      const from = recorder.requests.length;
      const answer = await call(url, 'POST', '/api/v1/me/billing/checkout', { cookie: m.cookie, body: {} });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      const sent = recorder.requests.slice(from);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', authorization: `Bearer ${TEST_BILLING.secretKey}` });
      expect(sent[0]?.params).toEqual({
        mode: 'subscription',
        'line_items[0][price]': TEST_BILLING.priceId,
        'line_items[0][quantity]': '1',
        client_reference_id: m.email,
        customer_email: m.email,
        'subscription_data[trial_period_days]': '30',
        'subscription_data[metadata][account]': m.email,
        'metadata[account]': m.email,
        success_url: `${url}/account/billing/?started=1`,
        cancel_url: `${url}/account/billing/?cancelled=1`,
      });
      expect((answer.body as { url: string }).url).toMatch(new RegExp(`^${recorder.url}/pay/cs_test_\\d+$`));

      const viaForm = await m.form('/api/v1/me/billing/checkout');
      expect(viaForm.status).toBe(303);
      expect(viaForm.headers.get('location')).toMatch(new RegExp(`^${recorder.url}/pay/cs_test_\\d+$`));
      // Nothing changes here until Stripe's webhook says so.
      expect((await m.plan()).status).toBeNull();
    });

    test('checkout: refused while on the plan; after the plan ended, no second trial and the same customer; without a session to /login; cross-site 403', async () => {
      const m = await member();
      const { url } = backing.env();
      const recorder = backing.recorder();
      await deliverOk(subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'trialing', account: m.email, trialEnd: now() + 30 * DAY }), 'applied');
      expectError(await call(url, 'POST', '/api/v1/me/billing/checkout', { cookie: m.cookie, body: {} }), 400, 'conflict');
      expect((await m.form('/api/v1/me/billing/checkout')).headers.get('location')).toBe('/account/billing/?error=on_plan');
      await deliverOk(subscriptionEvent('deleted', { id: m.subscription, customer: m.customer, status: 'canceled', account: m.email, created: now() + 1 }), 'applied');
      const from = recorder.requests.length;
      expect((await call(url, 'POST', '/api/v1/me/billing/checkout', { cookie: m.cookie })).status).toBe(200);
      const params = recorder.requests[from]?.params ?? {};
      expect(params.customer).toBe(m.customer);
      expect(params.customer_email).toBeUndefined();
      expect(params['subscription_data[trial_period_days]']).toBeUndefined();
      expect((await m.plan()).trialAvailable).toBe(false);

      const anonymous = await m.form('/api/v1/me/billing/checkout', {}, '');
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get('location')).toBe('/login?next=%2Faccount%2Fbilling%2F');
      expectError(await call(url, 'POST', '/api/v1/me/billing/checkout', { body: {} }), 401, 'unauthorized');
      expectError(await call(url, 'POST', '/api/v1/me/billing/checkout', { cookie: m.cookie, body: {}, origin: 'https://evil.example' }), 403, 'forbidden');
      expectError(await call(url, 'GET', '/api/v1/me/billing'), 401, 'unauthorized');
      expect(recorder.requests.length).toBe(from + 1);
    });

    test('portal: 404 before any plan; then a session for the account customer, coming back to /account/billing/', async () => {
      const m = await member();
      const { url } = backing.env();
      const recorder = backing.recorder();
      expectError(await call(url, 'POST', '/api/v1/me/billing/portal', { cookie: m.cookie, body: {} }), 404, 'not_found');
      expect((await m.form('/api/v1/me/billing/portal')).headers.get('location')).toBe('/account/billing/?error=no_customer');
      await deliverOk(checkoutCompleted({ account: m.email, customer: m.customer, subscription: m.subscription }), 'applied');
      const from = recorder.requests.length;
      const viaForm = await m.form('/api/v1/me/billing/portal');
      expect(viaForm.status).toBe(303);
      expect(viaForm.headers.get('location')).toMatch(new RegExp(`^${recorder.url}/portal/bps_test_\\d+$`));
      expect(recorder.requests[from]).toMatchObject({ path: '/v1/billing_portal/sessions', params: { customer: m.customer, return_url: `${url}/account/billing/` } });
      const json = await call(url, 'POST', '/api/v1/me/billing/portal', { cookie: m.cookie });
      expect((json.body as { url: string }).url).toMatch(/\/portal\/bps_test_\d+$/);
    });

    test('Stripe failing: 503 with Retry-After, nothing charged; a refusal of our settings is also logged as an error for the operator', async () => {
      const m = await member();
      const { url, server } = backing.env();
      const recorder = backing.recorder();
      // The library retries twice on a server error: three in a row.
      for (let i = 0; i < 3; i++) recorder.failNext(500, { type: 'api_error' });
      const down = expectError(await call(url, 'POST', '/api/v1/me/billing/checkout', { cookie: m.cookie }), 503, 'service_unavailable');
      expect(down.error).toBe('The payment provider cannot be reached just now.');
      expect(takeErrors(server)).toEqual([]);
      recorder.failNext(400, { type: 'invalid_request_error', code: 'resource_missing', message: 'No such price' });
      const answer: JsonResult = await call(url, 'POST', '/api/v1/me/billing/checkout', { cookie: m.cookie });
      expect(expectError(answer, 503, 'service_unavailable').error).not.toMatch(/price|stripe/i);
      expect(answer.headers.get('retry-after')).toBe('60');
      const logged = takeErrors(server);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('"billing_misconfigured"');
      expect(logged[0]).toContain('StripeInvalidRequestError');
      expect(logged[0]).not.toContain(TEST_BILLING.secretKey);
    });
  });
}
