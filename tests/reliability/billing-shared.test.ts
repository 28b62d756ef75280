/**
 * Paid plans with several instances (docs/billing.md): two server processes sharing one
 * PostgreSQL database (DATABASE_URL) and the same Stripe settings, as behind a load balancer
 * Stripe's deliveries reach either. Events are signed with the official library's test helper.
 * The same event delivered to both at once is applied once (one `applied`, one `duplicate`, one
 * recorded id); a subscription's events delivered shuffled over both at once end in the state of
 * the newest; the plan a webhook sets on one instance opens the gated feature on the other.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../../functions/db/database.ts';
import type { ChildServer } from '../helpers/child-server.ts';
import { startFixtureInstance, startPair } from '../helpers/instance-pair.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { billingEnv, deliver, now, subscriptionEvent, type StripeEvent } from '../helpers/stripe-events.ts';
import { startStripeRecorder, type StripeRecorder } from '../helpers/stripe-recorder.ts';
import { addAccount, call, login, type JsonResult, type TestAccount } from '../helpers/writes-harness.ts';

let work: string;
let postgres: PostgresServer;
let databaseUrl: string;
let recorder: StripeRecorder;
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-billing-shared-'));
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('shared_billing');
  recorder = await startStripeRecorder();
  const env = { DATABASE_URL: databaseUrl, SESSION_SECRET: 'one-secret-for-every-instance-of-this-billing-test', ...billingEnv(recorder.url) };
  [a, b] = await startPair((name) => startFixtureInstance(work, name, env));
}, 120_000);

afterAll(async () => {
  const errors = [...(a?.errors() ?? []), ...(b?.errors() ?? [])];
  await Promise.all([a?.stop(), b?.stop()]);
  await recorder?.stop();
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
  expect(errors).toEqual([]);
});

let serial = 0;
/** A member in the shared database, signed in (the cookie works on both instances: one SESSION_SECRET). */
async function member(): Promise<{ email: string; cookie: string; customer: string; subscription: string }> {
  const n = ++serial;
  const account: TestAccount = { email: `shared-payer${n}@example.com`, role: 'member', password: 'shared-payer-password' };
  addAccount(join(work, 'a', 'data'), account, { DATABASE_URL: databaseUrl });
  return { email: account.email, cookie: await login(a.url, account), customer: `cus_shared${n}`, subscription: `sub_shared${n}` };
}

const outcomeOf = (answer: JsonResult): string => {
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { outcome: string }).outcome;
};

async function recordedIds(ids: readonly string[]): Promise<number> {
  const db = openDatabase({ url: databaseUrl });
  try {
    const rows = await db.all<{ n: string | number }>(`SELECT count(*) AS n FROM billing_events WHERE event_id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`, [...ids]);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await db.close();
  }
}

test('the same event delivered to both instances at once is applied once: one applied, one duplicate, one recorded id', async () => {
  const members = await Promise.all(Array.from({ length: 8 }, () => member()));
  const events = members.map((m) => subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'trialing', account: m.email, trialEnd: now() + 30 * 86_400 }));
  // Each event to A and to B at the same moment, all events at once.
  const answers = await Promise.all(events.flatMap((event) => [deliver(a.url, event), deliver(b.url, event)]));
  for (let i = 0; i < events.length; i++) {
    expect([outcomeOf(answers[2 * i] as JsonResult), outcomeOf(answers[2 * i + 1] as JsonResult)].sort(), events[i]?.id).toEqual(['applied', 'duplicate']);
  }
  expect(await recordedIds(events.map((e) => e.id))).toBe(events.length);
  // Each member is on the trial, seen alike from both instances.
  for (const m of members) {
    for (const server of [a, b]) expect(((await call(server.url, 'GET', '/api/v1/me/billing', { cookie: m.cookie })).body as { status: string }).status).toBe('trialing');
  }
});

test("a subscription's events shuffled over both instances at once end in the state of the newest; late and repeated ones change nothing", async () => {
  const m = await member();
  const t = now() - 3600;
  const base = { id: m.subscription, customer: m.customer, account: m.email };
  const history: StripeEvent[] = [
    subscriptionEvent('created', { ...base, status: 'trialing', trialEnd: t + 30 * 86_400, created: t }),
    subscriptionEvent('updated', { ...base, status: 'active', created: t + 10 }),
    subscriptionEvent('updated', { ...base, status: 'past_due', created: t + 20 }),
    subscriptionEvent('updated', { ...base, status: 'active', created: t + 30, periodEnd: t + 60 * 86_400 }),
  ];
  // Newest first, every event twice (once to each instance), all at once.
  const deliveries = [...history].reverse().flatMap((event, i) => (i % 2 === 0 ? [deliver(a.url, event), deliver(b.url, event)] : [deliver(b.url, event), deliver(a.url, event)]));
  const outcomes = (await Promise.all(deliveries)).map(outcomeOf);
  expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(history.length);
  const plan = (await call(b.url, 'GET', '/api/v1/me/billing', { cookie: m.cookie })).body as { status: string; renewsAt: string };
  expect(plan.status).toBe('active');
  expect(plan.renewsAt).toBe(new Date((t + 60 * 86_400) * 1000).toISOString());
  // The deletion, delivered to both at once, ends it for good; a late update after it changes nothing.
  const deleted = subscriptionEvent('deleted', { ...base, status: 'canceled', created: t + 40 });
  expect((await Promise.all([deliver(a.url, deleted), deliver(b.url, deleted)])).map(outcomeOf).sort()).toEqual(['applied', 'duplicate']);
  expect(outcomeOf(await deliver(a.url, subscriptionEvent('updated', { ...base, status: 'active', created: t + 50 })))).toBe('superseded');
  expect(((await call(a.url, 'GET', '/api/v1/me/billing', { cookie: m.cookie })).body as { status: string }).status).toBe('canceled');
});

test('a plan set through one instance opens the gated feature on the other', async () => {
  const m = await member();
  const save = (server: ChildServer) => call(server.url, 'POST', '/api/v1/me/saved', { cookie: m.cookie, body: { kind: 'deal', id: 'd-aws00001' } });
  expect((await save(b)).status).toBe(402);
  expect(outcomeOf(await deliver(a.url, subscriptionEvent('created', { id: m.subscription, customer: m.customer, status: 'active', account: m.email })))).toBe('applied');
  expect((await save(b)).status).toBe(200);
});
