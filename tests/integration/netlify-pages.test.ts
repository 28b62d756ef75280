/**
 * The on-demand pages on Netlify (docs/deploying.md, "Serverless"): the function renders
 * Astro's server build from what netlify.toml bundles with it (dist/server and the 404 page,
 * copied here into a folder with no node_modules above it, so a package the build left out
 * would fail), by the handler contract (tests/helpers/netlify-instance.ts; not the Netlify CLI).
 * Two instances share one redis-server, one PostgreSQL and one SMTP server, as a person's
 * requests reach either: a member signs up through the pages on A, confirms on B, signs in on A,
 * sees the dashboard on B, submits a deal with the form and finds it on the dashboard. The
 * scheduled function runs the hourly jobs: the sweep of stale sign-ups and one alert round
 * across instances.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { astroBuild } from '../helpers/astro-build.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startNetlifyInstance, type NetlifyInstance } from '../helpers/netlify-instance.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';
import { FIXTURES } from '../helpers/server.ts';
import { eventually } from '../helpers/writes-harness.ts';

let work: string;
let redis: RedisServer;
let postgres: PostgresServer;
let databaseUrl: string;
let smtp: Receiver<ReceivedMail>;
let a: NetlifyInstance;
let b: NetlifyInstance;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-netlify-pages-'));
  await buildGenerated(join(FIXTURES, 'valid'), join(work, 'generated'));
  await astroBuild(join(work, 'generated'), join(work, 'build'));
  // The deploy bundle: only what `included_files` names of the build.
  await mkdir(join(work, 'bundle', 'dist', 'client'), { recursive: true });
  await cp(join(work, 'build', 'server'), join(work, 'bundle', 'dist', 'server'), { recursive: true });
  await cp(join(work, 'build', 'client', '404.html'), join(work, 'bundle', 'dist', 'client', '404.html'));
  [redis, postgres, smtp] = await Promise.all([startRedisServer(), startPostgresServer(), startSmtpReceiver()]);
  databaseUrl = await postgres.createDatabase('netlify_pages');
  const env = {
    GENERATED_DIR: join(work, 'generated'),
    DIST_DIR: join(work, 'bundle', 'dist'),
    DATA_DIR: join(work, 'data'),
    CONTENT_DIR: join(work, 'no-such-folder'),
    SESSION_SECRET: 'one-secret-for-every-function-instance-of-the-pages',
    REDIS_URL: redis.url,
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtp.url,
    SMTP_FROM: 'Deals <deals@example.com>',
  };
  [a, b] = await Promise.all([startNetlifyInstance(env), startNetlifyInstance(env)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([redis?.stop(), postgres?.stop(), smtp?.close()]);
  await rm(work, { recursive: true, force: true });
});

/** A browser's request to an instance: its page, or its form post (same origin), never following redirects. */
function visit(instance: NetlifyInstance, path: string, options: { form?: Record<string, string>; cookie?: string } = {}): Promise<Response> {
  return fetch(`${instance.url}${path}`, {
    method: options.form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      Accept: 'text/html',
      'X-Test-Client-Ip': '203.0.113.40',
      ...(options.form ? { 'Content-Type': 'application/x-www-form-urlencoded', Origin: instance.url.replace('http://', 'https://') } : {}),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
    },
    ...(options.form ? { body: new URLSearchParams(options.form).toString() } : {}),
  });
}

async function page(instance: NetlifyInstance, path: string, cookie?: string): Promise<string> {
  const response = await visit(instance, path, { cookie });
  const html = await response.text();
  expect(response.status, `${path}: ${html.slice(0, 300)}`).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  return html;
}

test('the sign-in, sign-up and search pages render on a function, with or without the trailing slash', async () => {
  for (const path of ['/login', '/login/', '/signup/', '/forgot-password']) expect(await page(a, path)).toMatch(/<form[^>]+method="post"/);
  expect(await page(b, '/deals/search/?q=aws')).toContain('AWS Activate');
  // Astro's 404 for a path under a claimed prefix that is no page, from the bundled 404.html.
  const missing = await visit(a, '/account/no-such-page/');
  expect(missing.status).toBe(404);
  expect(await missing.text()).toMatch(/<html/);
});

/** Through the pages and their forms: sign up on A, confirm with the mailed link on B, sign in on A; the session cookie. */
async function signUpThroughPages(email: string, password: string): Promise<string> {
  const signUp = await visit(a, '/api/v1/auth/signup', { form: { email, password } });
  expect(signUp.status, await signUp.text()).toBe(303);
  let token = '';
  await eventually(async () => {
    const mail = smtp.received.find((m) => m.to.includes(email));
    token = new URL(/https?:\/\/\S+token=\S+/.exec(mail?.text ?? '')?.[0] ?? 'http://x/').searchParams.get('token') ?? '';
    return token !== '';
  });
  // The mailed link's page (a button, so a mail scanner confirms nothing), then its form post, on B.
  expect(await page(b, `/confirm-email?token=${encodeURIComponent(token)}`)).toContain(`value="${token}"`);
  expect((await visit(b, '/api/v1/auth/verify', { form: { token } })).status).toBe(303);
  const signIn = await visit(a, '/api/v1/auth/login', { form: { email, password } });
  expect(signIn.status).toBe(303);
  const cookie = (signIn.headers.getSetCookie().find((c) => c.includes('deals_session=')) ?? '').split(';')[0] ?? '';
  expect(cookie).toMatch(/^__Host-deals_session=/);
  return cookie;
}

test('a member signs up on A, confirms on B, signs in on A, and finds the dashboard and their submission on B', async () => {
  const email = 'pages-member@example.com';
  const signedOut = await visit(b, '/account/');
  expect([302, 303]).toContain(signedOut.status);
  expect(signedOut.headers.get('location')).toMatch(/^\/login/);
  const cookie = await signUpThroughPages(email, 'a-member-password-on-functions');
  expect(await page(b, '/account/', cookie)).toMatch(/<h1[^>]*>Your dashboard<\/h1>/);

  // The form, prefilled for the member on B; posted on A; the thanks page is a built file (Netlify's, not the function's).
  expect(await page(b, '/submit/', cookie)).toContain(`value="${email}"`);
  const posted = await visit(a, '/submit/', {
    cookie,
    form: {
      company_name: 'Functions Co',
      website_url: 'https://functions.example',
      site_category: 'saas-discounts',
      benefit_description: 'Ten percent off the first year for startups of any size.',
      deal_value: '10% off',
      redemption_method: 'link',
      redemption_link: 'https://functions.example/startups',
      submitter_email: email,
    },
  });
  expect(posted.status, await posted.text()).toBe(303);
  expect(posted.headers.get('location')).toMatch(/^\/submit\/thanks\/?/);
  const dashboard = await page(b, '/account/', cookie);
  expect(dashboard).toContain('Functions Co');
  expect(dashboard).toContain('Waiting for review');
}, 60_000);

test("the scheduled function: stale sign-ups swept; a member with alerts on taken by one instance's run, not the other's", async () => {
  const cookie = await signUpThroughPages('alerted-member@example.com', 'an-alerted-member-password');
  const profile = await visit(b, '/api/v1/me/profile', { cookie, form: { alerts: 'on' } });
  expect(profile.status, await profile.text()).toBe(303);
  const stale = 'never-confirmed@example.com';
  expect((await visit(a, '/api/v1/auth/signup', { form: { email: stale, password: 'a-password-never-used' } })).status).toBe(303);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('UPDATE accounts SET created_at = $1 WHERE email = $2', [new Date(Date.now() - 49 * 3600_000).toISOString(), stale]);
    const run = async (instance: NetlifyInstance) => {
      const response = await fetch(`${instance.url}/.netlify/functions/hourly`, { method: 'POST' });
      expect(response.status).toBe(200);
      return (await response.json()) as { alerts: { ran: boolean; mailed: number; left: number }; staleSignUpsRemoved: number };
    };
    const first = await run(a);
    expect(first.staleSignUpsRemoved).toBe(1);
    expect((await client.query('SELECT 1 FROM accounts WHERE email = $1', [stale])).rowCount).toBe(0);
    // Nothing saved, nothing to tell: taken, not mailed. Taken in the shared database, so B's run within the interval finds nobody due.
    expect(first.alerts).toEqual({ ran: true, mailed: 0, failed: 0, left: 0 });
    expect((await run(b)).alerts.ran).toBe(false);
  } finally {
    await client.end();
  }
}, 60_000);
