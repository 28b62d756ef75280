/**
 * What a member's data export and account deletion must do over real HTTP, as one suite run on
 * each database engine (tests/integration/member-data.test.ts: SQLite;
 * member-data-postgres.test.ts: PostgreSQL), with a real OpenID Connect provider for the
 * accounts without a password: the export as a dated JSON download holding every section (the
 * account without its hash or generation, saved items, outbox mail) and nothing else; deletion
 * confirmed by the password (counted by the sign-in throttle) or, without one, the address;
 * every section empty afterwards, cookies cleared, the session dead; JSON and form posts; the
 * last admin kept, also against two deletions at once.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import type { Database } from '../../functions/db/database.ts';
import { MEMBER_DATA_SECTIONS } from '../../functions/members/member-data.ts';
import { CookieJar, signInThroughProvider, type ProviderUser, type TestProvider } from './oidc-provider.ts';
import { ADMIN, call, callFrom, expectError, login, type JsonResult, type TestAccount, type WriteServer } from './writes-harness.ts';

export interface MemberDataBacking {
  /** The server, with ADMIN (its only admin) in its database and the provider below configured. */
  env: () => WriteServer;
  /** The OpenID Connect provider, knowing `SSO_USERS`. */
  provider: () => TestProvider;
  /** Add an account where the server reads them (`password: ''`: one without a password). */
  addAccount: (account: TestAccount) => void;
  /** A connection to the server's database. */
  database: () => Database;
}

/** The provider's users: log in as `sso` to be this address. */
export const SSO_USERS: Record<string, ProviderUser> = { sso: { email: 'sso-member@example.com', emailVerified: true } };

/**
 * The server's settings for the suite: the provider, and the general per-minute limits off (one
 * client signs in and deletes some fifty times in a minute here; those limits are not under
 * test). The sign-in throttle, which is, holds whatever RATE_LIMITS says.
 */
export function providerSettings(provider: TestProvider): Record<string, string> {
  return { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret, OIDC_NAME: 'Test Provider', RATE_LIMITS: 'off' };
}

const FORM = 'application/x-www-form-urlencoded';
const AWS = 'd-aws00001';
const INVOICENEST = 's-inv00001';
const PASSWORD = 'member-data-password-1';

/** The export as the issue asks for it, written here from the contract: strict, so a field that should never leave (a hash, a generation) fails. */
const ExportContract = z.strictObject({
  format: z.literal('member-data/1'),
  exportedAt: z.iso.datetime(),
  site: z.url(),
  account: z.strictObject({
    email: z.string(),
    role: z.enum(['admin', 'member']),
    createdAt: z.iso.datetime(),
    emailConfirmedAt: z.iso.datetime().nullable(),
    hasPassword: z.boolean(),
  }),
  savedItems: z.array(z.strictObject({ kind: z.enum(['deal', 'startup']), id: z.string(), title: z.string(), slug: z.string(), savedAt: z.iso.datetime() })),
  profile: z
    .strictObject({
      stage: z.string().nullable(),
      region: z.string().nullable(),
      fundingUsd: z.number().nullable(),
      builds: z.string().nullable(),
      alerts: z.boolean(),
      updatedAt: z.iso.datetime(),
      alertsCheckedAt: z.iso.datetime().nullable(),
    })
    .nullable(),
  plan: z
    .strictObject({
      status: z.string().nullable(),
      customerId: z.string().nullable(),
      subscriptionId: z.string().nullable(),
      trialEnd: z.string().nullable(),
      currentPeriodEnd: z.string().nullable(),
      updatedAt: z.string(),
    })
    .nullable(),
  submissions: z.array(
    z.strictObject({
      id: z.string(),
      companyName: z.string(),
      websiteUrl: z.string(),
      submittedAt: z.iso.datetime(),
      status: z.enum(['pending', 'approved', 'rejected', 'unknown']),
      reviewedAt: z.iso.datetime().optional(),
      reason: z.string().optional(),
      deal: z.strictObject({ id: z.string(), title: z.string(), url: z.string() }).optional(),
    }),
  ),
  outbox: z.array(z.strictObject({ kind: z.string(), subject: z.string(), writtenAt: z.iso.datetime() })),
});

/** What a section holds of an account that has nothing there: none (one-row sections), or an empty list. */
const NOTHING: Record<string, unknown> = { account: 0, profile: null, plan: null };

export function memberDataSuite(backing: MemberDataBacking): void {
  let serial = 0;
  const url = () => backing.env().url;
  const outbox = () => join(backing.env().dataDir, 'outbox');

  /** A fresh confirmed member with a password, signed in. */
  async function member(): Promise<{ email: string; cookie: string }> {
    const account: TestAccount = { email: `owner${++serial}-${Date.now()}@example.com`, role: 'member', password: PASSWORD };
    backing.addAccount(account);
    return { email: account.email, cookie: await login(url(), account) };
  }

  const save = async (cookie: string, kind: string, id: string) => expect((await call(url(), 'POST', '/api/v1/me/saved', { cookie, body: { kind, id } })).status).toBe(200);
  const exportOf = (cookie: string, headers: Record<string, string> = {}) => call(url(), 'GET', '/api/v1/me/export', { cookie, headers });
  const remove = (cookie: string, body: unknown) => call(url(), 'POST', '/api/v1/me/delete', { cookie, body });
  const form = (fields: Record<string, string>, cookie?: string, origin = url()) =>
    fetch(`${url()}/api/v1/me/delete`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': FORM, Origin: origin, ...(cookie ? { Cookie: cookie } : {}) },
      body: new URLSearchParams(fields),
    });

  /** The outbox files addressed to `email`. */
  async function mailTo(email: string): Promise<string[]> {
    const names = await readdir(outbox()).catch(() => [] as string[]);
    const to: string[] = [];
    for (const name of names) if ((await readFile(join(outbox(), name), 'utf8')).startsWith(`To: ${email}\n`)) to.push(name);
    return to;
  }

  /** A reset link mailed to the member (no SMTP here: into the outbox), waited for. */
  async function mailReset(email: string): Promise<void> {
    expect((await call(url(), 'POST', '/api/v1/auth/password-reset-request', { body: { email } })).status).toBe(202);
    await expect.poll(() => mailTo(email), { timeout: 10_000 }).toHaveLength(1);
  }

  /** What every section still holds of `email`, read straight from the stores: nothing once deleted. */
  async function leftOf(email: string): Promise<Record<string, unknown>> {
    const db = backing.database();
    try {
      const left: Record<string, unknown> = {};
      const [account] = await db.all<{ n: number | string }>('SELECT count(*) AS n FROM accounts WHERE email = $1', [email]);
      left.account = Number(account?.n);
      for (const section of MEMBER_DATA_SECTIONS.filter((s) => s.key !== 'account')) left[section.key] = await section.export({ email, q: db, dataDir: backing.env().dataDir });
      return left;
    } finally {
      await db.close();
    }
  }

  const clearedCookies = (result: { headers: Headers }) =>
    result.headers
      .getSetCookie()
      .map((c) => c.split(';').slice(0, 2).join(';').trim())
      .sort();

  describe('export', () => {
    test('a dated JSON download of the account (no hash, no generation), its saved items and its outbox mail; never cached', async () => {
      const m = await member();
      await save(m.cookie, 'deal', AWS);
      await save(m.cookie, 'startup', INVOICENEST);
      await mailReset(m.email);
      const answer = await exportOf(m.cookie);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z0-9-]+-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
      expect(answer.headers.get('content-disposition')).toContain(`-my-data-${new Date().toISOString().slice(0, 10)}.json"`);
      const data = ExportContract.parse(answer.body);
      expect(data.account).toMatchObject({ email: m.email, role: 'member', hasPassword: true });
      expect(data.account.emailConfirmedAt).not.toBeNull();
      expect(data.savedItems.map((i) => [i.kind, i.id])).toEqual([
        ['startup', INVOICENEST],
        ['deal', AWS],
      ]);
      expect(data.savedItems[1]).toMatchObject({ title: 'AWS Activate Founders', slug: 'aws-activate' });
      expect(data.outbox).toEqual([{ kind: 'reset', subject: expect.stringMatching(/^Reset your password for /), writtenAt: expect.any(String) }]);
      // Nothing that could sign in as the member leaves: not the hash, not the session generation, not the reset link.
      const db = backing.database();
      const [row] = await db.all<{ generation: string; password_hash: string }>('SELECT generation, password_hash FROM accounts WHERE email = $1', [m.email]).finally(() => db.close());
      expect(row?.generation).toBeTruthy();
      for (const secret of [row?.generation as string, row?.password_hash as string, 'scrypt$', 'token=']) expect(answer.text).not.toContain(secret);
    });

    test('401 without a session; a download another site starts is 403; typed in or from this site it is 200', async () => {
      expectError(await call(url(), 'GET', '/api/v1/me/export'), 401, 'unauthorized');
      const m = await member();
      expectError(await exportOf(m.cookie, { 'Sec-Fetch-Site': 'cross-site' }), 403, 'forbidden');
      expectError(await exportOf(m.cookie, { 'Sec-Fetch-Site': 'same-site' }), 403, 'forbidden');
      expect((await exportOf(m.cookie, { 'Sec-Fetch-Site': 'none' })).status).toBe(200);
      expect((await exportOf(m.cookie, { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
      // No CORS grant to another origin.
      const preflight = await fetch(`${url()}/api/v1/me/export`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('delete', () => {
    test('with the password (JSON): a wrong or missing one deletes nothing; the right one empties every section, clears the cookies and ends the session; other accounts keep theirs', async () => {
      const m = await member();
      const bystander = await member();
      for (const cookie of [m.cookie, bystander.cookie]) await save(cookie, 'deal', AWS);
      expect((await call(url(), 'POST', '/api/v1/me/profile', { cookie: m.cookie, body: { stage: 'seed', builds: 'invoicing', alerts: true } })).status).toBe(200);
      await mailReset(m.email);

      const wrong = expectError(await remove(m.cookie, { password: 'not-the-password' }), 403, 'forbidden');
      expect(wrong.error).toBe('The password is not right. Nothing was deleted.');
      expect(expectError(await remove(m.cookie, {}), 400, 'validation_error').error).toMatch(/^`password` is required/);
      const long = 'p'.repeat(201);
      const tooLong = await remove(m.cookie, { password: long });
      expectError(tooLong, 400, 'validation_error');
      expect(tooLong.text).not.toContain(long);
      expectError(await call(url(), 'POST', '/api/v1/me/delete', { cookie: m.cookie, body: { password: PASSWORD }, origin: 'https://evil.example' }), 403, 'forbidden');
      expect((await exportOf(m.cookie)).status).toBe(200);
      expect(await leftOf(m.email)).toMatchObject({ savedItems: [{ id: AWS }], profile: { stage: 'seed', builds: 'invoicing', alerts: true } });

      const deleted = await remove(m.cookie, { password: PASSWORD });
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body).toEqual({ success: true, message: 'Your account and everything stored about it are deleted.' });
      expect(deleted.headers.get('cache-control')).toBe('no-store');
      expect(clearedCookies(deleted)).toEqual(['deals_session=; Path=/', 'deals_signed_in=; Path=/']);
      expect(deleted.headers.getSetCookie().every((c) => c.includes('Max-Age=0'))).toBe(true);

      const left = await leftOf(m.email);
      expect(left).toEqual(Object.fromEntries(MEMBER_DATA_SECTIONS.map((s) => [s.key, s.key in NOTHING ? NOTHING[s.key] : []])));
      expect(await mailTo(m.email)).toEqual([]);
      // The session (and any copy of its cookie) is over, and the password signs in no more.
      expectError(await exportOf(m.cookie), 401, 'unauthorized');
      expectError(await call(url(), 'GET', '/api/v1/me/saved', { cookie: m.cookie }), 401, 'unauthorized');
      expectError(await remove(m.cookie, { password: PASSWORD }), 401, 'unauthorized');
      expectError(await call(url(), 'POST', '/api/v1/auth/login', { body: { email: m.email, password: PASSWORD } }), 401, 'unauthorized');
      // Someone else's list is untouched.
      expect((await leftOf(bystander.email)).savedItems).toHaveLength(1);
      // The address is free: signing up with it again starts a new account.
      expect((await call(url(), 'POST', '/api/v1/auth/signup', { body: { email: m.email, password: 'a new password' } })).status).toBe(202);
    });

    test('form posts: without a session to sign in and back; a refusal back to the page with its reason; deleted, to /account/deleted/ with the cookies cleared', async () => {
      const anonymous = await form({ password: PASSWORD });
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get('location')).toBe('/login?next=%2Faccount%2Fprivacy%2F');
      const m = await member();
      await save(m.cookie, 'deal', AWS);
      const back = async (fields: Record<string, string>) => (await form(fields, m.cookie)).headers.get('location');
      expect(await back({ password: 'not-the-password' })).toBe('/account/privacy/?error=password#delete');
      expect(await back({ password: '' })).toBe('/account/privacy/?error=missing#delete');
      expect(await back({ password: 'p'.repeat(201) })).toBe('/account/privacy/?error=invalid#delete');
      expect((await form({ password: PASSWORD }, m.cookie, 'https://evil.example')).status).toBe(403);
      expect((await leftOf(m.email)).account).toBe(1);
      const deleted = await form({ password: PASSWORD }, m.cookie);
      expect(deleted.status).toBe(303);
      expect(deleted.headers.get('location')).toBe('/account/deleted/');
      expect(clearedCookies(deleted)).toEqual(['deals_session=; Path=/', 'deals_signed_in=; Path=/']);
      expect(await leftOf(m.email)).toMatchObject({ account: 0, savedItems: [] });
      // The old cookie no longer counts: back to signing in.
      expect((await form({ password: PASSWORD }, m.cookie)).headers.get('location')).toBe('/login?next=%2Faccount%2Fprivacy%2F');
    });

    test('wrong passwords count as failed sign-ins: the sixth try is 429 with Retry-After, the right password is refused then too, and so is signing in', async () => {
      const m = await member();
      const client = '127.0.0.77';
      const attempt = (password: string) => callFrom(client, url(), 'POST', '/api/v1/me/delete', { cookie: m.cookie, body: { password } });
      for (let i = 0; i < 5; i++) expectError(await attempt(`wrong-${i}`), 403, 'forbidden');
      const limited = expectError(await attempt('wrong-5'), 429, 'rate_limited');
      expect(limited.error).toBe("Too many failed attempts with this account's password. Nothing was deleted.");
      expect(Number((await attempt(PASSWORD)).headers.get('retry-after'))).toBeGreaterThan(0);
      expectError(await attempt(PASSWORD), 429, 'rate_limited');
      expectError(await callFrom(client, url(), 'POST', '/api/v1/auth/login', { body: { email: m.email, password: PASSWORD } }), 429, 'rate_limited');
      const formFrom = await callFrom(client, url(), 'POST', '/api/v1/me/delete', { cookie: m.cookie, rawBody: `password=${PASSWORD}`, headers: { 'Content-Type': FORM } });
      expect(formFrom.headers.get('location')).toBe('/account/privacy/?error=throttled#delete');
      expect((await leftOf(m.email)).account).toBe(1);
      // From another client the pair is fresh: the right password deletes.
      expect((await remove(m.cookie, { password: PASSWORD })).status).toBe(200);
    });

    test('an account without a password (the identity provider) confirms with its e-mail address, in any case and spacing', async () => {
      const email = SSO_USERS.sso?.email as string;
      backing.addAccount({ email, role: 'member', password: '' });
      const jar = new CookieJar();
      const signedIn = await signInThroughProvider(`${url()}/api/v1/auth/oidc`, 'sso', jar, url());
      expect(signedIn.status).toBe(303);
      const cookie = jar.header();
      await save(cookie, 'deal', AWS);
      expect(ExportContract.parse((await exportOf(cookie)).body).account).toMatchObject({ email, hasPassword: false });
      expect(expectError(await remove(cookie, { password: 'anything' }), 400, 'validation_error').error).toMatch(/^`email` is required: this account has no password/);
      expectError(await remove(cookie, { email: 'someone-else@example.com' }), 403, 'forbidden');
      expect((await form({ email: 'someone-else@example.com' }, cookie)).headers.get('location')).toBe('/account/privacy/?error=email#delete');
      const deleted = await remove(cookie, { email: `  ${email.toUpperCase()} ` });
      expect(deleted.status, deleted.text).toBe(200);
      expect(await leftOf(email)).toMatchObject({ account: 0, savedItems: [] });
      expectError(await exportOf(cookie), 401, 'unauthorized');
    });

    test('the last admin cannot delete their account (400 conflict; the form says so); with another admin, an admin can', async () => {
      const admin = await login(url(), ADMIN);
      const refused = expectError(await remove(admin, { password: ADMIN.password }), 400, 'conflict');
      expect(refused.error).toBe('This is the only admin account: without it the site would have no editor. Nothing was deleted.');
      expect((await form({ password: ADMIN.password }, admin)).headers.get('location')).toBe('/account/privacy/?error=only-admin#delete');
      expect((await leftOf(ADMIN.email)).account).toBe(1);
      const second: TestAccount = { email: `second-admin-${Date.now()}@example.com`, role: 'admin', password: 'second-admin-password' };
      backing.addAccount(second);
      const secondCookie = await login(url(), second);
      expect((await remove(secondCookie, { password: second.password })).status).toBe(200);
      // The only admin again.
      expectError(await remove(admin, { password: ADMIN.password }), 400, 'conflict');
    });

    test('at once: the same account deleted twice is deleted once; of the last two admins deleting together, one stays', async () => {
      const m = await member();
      const twice = await Promise.all([remove(m.cookie, { password: PASSWORD }), remove(m.cookie, { password: PASSWORD })]);
      expect(twice.map((r) => r.status).sort()).toEqual([200, 401]);

      const second: TestAccount = { email: `racing-admin-${Date.now()}@example.com`, role: 'admin', password: 'racing-admin-password' };
      backing.addAccount(second);
      const [first, other] = await Promise.all([login(url(), ADMIN), login(url(), second)]);
      const both: JsonResult[] = await Promise.all([remove(first, { password: ADMIN.password }), remove(other, { password: second.password })]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
      const db = backing.database();
      const admins = await db.all<{ email: string }>("SELECT email FROM accounts WHERE role = 'admin'").finally(() => db.close());
      expect(admins).toHaveLength(1);
      // Whichever stayed, ADMIN is back for whatever runs next.
      backing.addAccount(ADMIN);
    });
  });
}
