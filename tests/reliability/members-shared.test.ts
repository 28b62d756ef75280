/**
 * Members with several instances (issue 18, "Done when"): two server processes sharing one
 * PostgreSQL database (DATABASE_URL), one SESSION_SECRET and one real SMTP server, as behind a
 * load balancer a person's requests reach either. A member signs up on A, confirms with the mailed
 * link on B, and signs in on B; what they save, their profile and their submissions are the same
 * on both; an editor's review on B shows on A; the account deleted on A is gone on B.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ChildServer } from '../helpers/child-server.ts';
import { startFixtureInstance, startPair } from '../helpers/instance-pair.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { ADMIN, addAccount, call, eventually, login, submissionBody, type JsonResult } from '../helpers/writes-harness.ts';

let work: string;
let postgres: PostgresServer;
let databaseUrl: string;
let smtp: Receiver<ReceivedMail>;
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-members-shared-'));
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('shared_members');
  smtp = await startSmtpReceiver();
  const env = { DATABASE_URL: databaseUrl, SESSION_SECRET: 'one-secret-for-every-instance-of-this-members-test', SMTP_URL: smtp.url, SMTP_FROM: 'Deals <deals@example.com>' };
  [a, b] = await startPair((name) => startFixtureInstance(work, name, env));
  addAccount(join(work, 'a', 'data'), ADMIN, { DATABASE_URL: databaseUrl });
}, 120_000);

afterAll(async () => {
  const errors = [...(a?.errors() ?? []), ...(b?.errors() ?? [])];
  await Promise.all([a?.stop(), b?.stop()]);
  await smtp?.close();
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
  expect(errors).toEqual([]);
});

const PASSWORD = 'shared-member-password';

/** Sign up on A, confirm on B with the link the SMTP server received, sign in on B: the cookie. */
async function newMember(email: string): Promise<string> {
  const signedUp = await call(a.url, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD } });
  expect(signedUp.status, signedUp.text).toBe(202);
  let token = '';
  await eventually(async () => {
    const mail = smtp.received.find((m) => m.to.includes(email) && /^Confirm your e-mail address/.test(m.headers.get('subject') ?? ''));
    token = new URL(/https?:\/\/\S+token=\S+/.exec(mail?.text ?? '')?.[0] ?? 'http://x/').searchParams.get('token') ?? '';
    return token !== '';
  });
  // Not yet confirmed: neither instance signs it in.
  expect((await call(b.url, 'POST', '/api/v1/auth/login', { body: { email, password: PASSWORD } })).status).toBe(403);
  const confirmed = await call(b.url, 'POST', '/api/v1/auth/verify', { body: { token } });
  expect(confirmed.status, confirmed.text).toBe(200);
  return login(b.url, { email, password: PASSWORD });
}

const ok = (answer: JsonResult): JsonResult => {
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer;
};

test('signed up on A, confirmed and signed in on B: saved items, the profile and submissions are the same on both; a review on B shows on A', async () => {
  const email = 'shared-member@example.com';
  const cookie = await newMember(email);
  ok(await call(a.url, 'POST', '/api/v1/me/saved', { cookie, body: { kind: 'deal', id: 'd-aws00001' } }));
  expect(((await call(b.url, 'GET', '/api/v1/me/saved', { cookie })).body as { ids: { deal: string[] } }).ids.deal).toEqual(['d-aws00001']);
  ok(await call(b.url, 'POST', '/api/v1/me/profile', { cookie, body: { stage: 'seed', alerts: true } }));

  const submitted = ok(await call(a.url, 'POST', '/api/v1/submit-deal', { cookie, body: submissionBody('Shared', 1) })).body as { id: string };
  const boardOf = async (server: ChildServer) =>
    ok(await call(server.url, 'GET', '/api/v1/me/dashboard', { cookie })).body as {
      profile: { stage?: string };
      saved: Array<{ id: string }>;
      submissions: Array<{ id: string; status: string; deal?: { url: string } }>;
    };
  const onA = await boardOf(a);
  expect(onA.profile.stage).toBe('seed');
  expect(onA.saved.map((s) => s.id)).toEqual(['d-aws00001']);
  expect(onA.submissions).toMatchObject([{ id: submitted.id, status: 'pending' }]);

  // An editor approves on B (B's content repository gets the deal): both dashboards say it is published; B, which serves the deal, links it.
  const admin = await login(b.url, ADMIN);
  ok(await call(b.url, 'POST', '/api/v1/admin/submissions/approve', { cookie: admin, body: { id: submitted.id } }));
  expect((await boardOf(a)).submissions).toMatchObject([{ id: submitted.id, status: 'approved' }]);
  expect((await boardOf(b)).submissions[0]?.deal?.url).toMatch(/^\/deals\/[a-z0-9-]+\/$/);
});

test('an account deleted on A is gone on B: its session, its sign-in and its data', async () => {
  const email = 'shared-leaver@example.com';
  const cookie = await newMember(email);
  ok(await call(b.url, 'POST', '/api/v1/me/saved', { cookie, body: { kind: 'deal', id: 'd-aws00001' } }));
  ok(await call(a.url, 'POST', '/api/v1/me/delete', { cookie, body: { password: PASSWORD } }));
  // B reads an account afresh at most 2 s after its last read (functions/auth/accounts.ts).
  await eventually(async () => (await call(b.url, 'GET', '/api/v1/me/saved', { cookie })).status === 401, 5000);
  expect((await call(b.url, 'POST', '/api/v1/auth/login', { body: { email, password: PASSWORD } })).status).toBe(401);
});
