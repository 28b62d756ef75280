/**
 * What sign-in by a mailed link must do over real HTTP, with mail through a real SMTP server on
 * 127.0.0.1, as one suite run on each database engine (tests/integration/sign-in-link.test.ts:
 * SQLite; sign-in-link-postgres.test.ts: PostgreSQL): a member's link signs in once and goes on
 * to `next`; two uses at once, one wins; it expires after 15 minutes (the server's clock
 * moved); a password reset voids it; an unconfirmed account is confirmed by it and loses the
 * password chosen at sign-up; an address without an account is mailed a note to sign up, an
 * editor's nothing, and the answer is the same; the mail limits shared with sign-up and reset;
 * bad bodies, foreign tokens and cross-site posts refused.
 */
import { describe, expect, test } from 'vitest';
import type { ReceivedMail, Receiver } from './notify-receivers.ts';
import { call, callFrom, expectError, type JsonResult, type TestAccount, type WriteServer } from './writes-harness.ts';

export interface SignInLinkBacking {
  /** The server, sending mail to `smtp`. */
  env: () => WriteServer;
  smtp: () => Receiver<ReceivedMail>;
  /** Add an account where the server reads them (its DATABASE_URL too). */
  addAccount: (account: TestAccount) => void;
}

const FORM = 'application/x-www-form-urlencoded';

export function signInLinkSuite(backing: SignInLinkBacking): void {
  let serial = 0;
  /** Each test from its own loopback addresses: the per-client mail limit is its own. */
  let nextAddress = 10;
  const client = () => `127.0.${20 + Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  const url = () => backing.env().url;
  const post = (path: string, body: unknown, from = client()) => callFrom(from, url(), 'POST', `/api/v1${path}`, { body });
  /** A browser's form post, its redirect not followed. */
  const form = (path: string, fields: Record<string, string>, from = client()) =>
    callFrom(from, url(), 'POST', `/api/v1${path}`, { rawBody: new URLSearchParams(fields).toString(), headers: { 'Content-Type': FORM } });

  /** A confirmed member of its own (a new address: the server has no earlier read of it to reuse). */
  async function member(): Promise<TestAccount> {
    const account: TestAccount = { email: `linker${++serial}-${Date.now()}@example.com`, role: 'member', password: 'a member password' };
    backing.addAccount(account);
    return account;
  }

  /** The mails to `to` so far, waiting for the first `count`. */
  async function mailsTo(to: string, count = 1): Promise<ReceivedMail[]> {
    await expect.poll(() => backing.smtp().received.filter((m) => m.to.includes(to)).length, { timeout: 5000 }).toBeGreaterThanOrEqual(count);
    return backing.smtp().received.filter((m) => m.to.includes(to));
  }
  /** The token of the newest sign-in link mailed to `to`. */
  async function mailedToken(to: string, count = 1): Promise<string> {
    const mail = (await mailsTo(to, count)).at(-1) as ReceivedMail;
    expect(mail.headers.get('subject')).toMatch(/^Your sign-in link for /);
    const link = new URL(/https?:\/\/\S+token=\S+/.exec(mail.text)?.[0] ?? '');
    expect(link.pathname).toBe('/sign-in-link');
    return link.searchParams.get('token') as string;
  }
  const sessionOf = (answer: JsonResult) => (answer.headers.getSetCookie().find((c) => c.startsWith('deals_session=')) ?? '').split(';')[0] as string;
  const use = (token: string) => post('/auth/magic-link/sign-in', { token });

  describe('sign-in by a mailed link', () => {
    test('a member asks by form (keeping next), opens the mail, presses the button: signed in, on the page it came from; the link works once', async () => {
      const account = await member();
      const asked = await form('/auth/magic-link', { email: account.email.toUpperCase(), next: '/deals/?search=cloud' });
      expect(asked.status).toBe(303);
      expect(asked.headers.get('location')).toBe('/login?link-sent=1&next=%2Fdeals%2F%3Fsearch%3Dcloud');
      const token = await mailedToken(account.email);
      // The link opens a page whose button signs in: a GET of the API signs nobody in.
      expect((await call(url(), 'GET', `/api/v1/auth/magic-link/sign-in?token=${encodeURIComponent(token)}`)).status).toBe(405);

      const signedIn = await form('/auth/magic-link/sign-in', { token });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('location')).toBe('/deals/?search=cloud');
      const cookies = signedIn.headers.getSetCookie();
      expect(cookies.find((c) => c.startsWith('deals_session='))).toMatch(/HttpOnly; SameSite=Lax/);
      expect(cookies.some((c) => c.startsWith('deals_signed_in=1'))).toBe(true);
      const session = await call(url(), 'GET', '/api/v1/auth/session', { cookie: sessionOf(signedIn) });
      expect(session.body).toMatchObject({ user: { email: account.email, role: 'member' } });

      const again = await form('/auth/magic-link/sign-in', { token });
      expect(again.headers.get('location')).toBe('/login?error=signin_link_expired&next=%2Fdeals%2F%3Fsearch%3Dcloud');
      expect(again.headers.getSetCookie()).toEqual([]);
      const againJson = await use(token);
      expectError(againJson, 400, 'validation_error');
      expect(againJson.text).toContain('was used already');
    });

    test('JSON: 202 with the same answer whatever the address; without next, a member lands on the dashboard', async () => {
      const account = await member();
      const asked = await post('/auth/magic-link', { email: account.email });
      expect(asked.status).toBe(202);
      expect(asked.headers.get('cache-control')).toBe('no-store');
      const signedIn = await form('/auth/magic-link/sign-in', { token: await mailedToken(account.email) });
      expect(signedIn.headers.get('location')).toBe('/account/');

      const stranger = `stranger${++serial}@example.com`;
      const unknown = await post('/auth/magic-link', { email: stranger });
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual(asked.body);
      // The owner of the address is told there is no account, with a link to sign up (and no token).
      const [note] = await mailsTo(stranger);
      expect(note?.headers.get('subject')).toMatch(/^No account on .+ uses this address$/);
      expect(note?.text).toMatch(/Create one: https?:\/\/\S+\/signup\n/);
      expect(note?.text).not.toMatch(/token=/);
    });

    test("an editor's address gets no link (they sign in with their password or the provider) and the same answer", async () => {
      const editor: TestAccount = { email: `editor${++serial}@example.com`, role: 'admin', password: 'an editors password' };
      backing.addAccount(editor);
      const before = backing.smtp().received.length;
      const answer = await post('/auth/magic-link', { email: editor.email });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ success: true, message: expect.stringContaining('Check your e-mail') });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(backing.smtp().received.length).toBe(before);
    });

    test('two uses of one link at once: exactly one signs in', async () => {
      const account = await member();
      await post('/auth/magic-link', { email: account.email });
      const token = await mailedToken(account.email);
      const answers = await Promise.all(Array.from({ length: 6 }, () => use(token)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
      const winner = answers.find((a) => a.status === 200) as JsonResult;
      expect(winner.body).toEqual({ success: true, user: { email: account.email, role: 'member' } });
      expect(sessionOf(winner)).toMatch(/^deals_session=./);
      for (const loser of answers.filter((a) => a.status === 400)) expect(loser.headers.getSetCookie()).toEqual([]);
    });

    test('a link works for 15 minutes (the server clock moved on)', async () => {
      const account = await member();
      await post('/auth/magic-link', { email: account.email });
      const late = await mailedToken(account.email);
      await post('/auth/magic-link', { email: account.email });
      const inTime = await mailedToken(account.email, 2);
      const deps = backing.env().server.deps;
      const sent = Date.now();
      try {
        deps.clock = () => new Date(sent + 15 * 60 * 1000 + 1000);
        expectError(await use(late), 400, 'validation_error');
        deps.clock = () => new Date(sent + 14 * 60 * 1000);
        expect((await use(inTime)).status).toBe(200);
      } finally {
        deps.clock = () => new Date();
      }
    });

    test('a password reset voids every sign-in link sent before it', async () => {
      const account = await member();
      await post('/auth/magic-link', { email: account.email });
      const token = await mailedToken(account.email);
      await post('/auth/password-reset-request', { email: account.email });
      const reset = (await mailsTo(account.email, 2)).find((m) => /^Reset your password/.test(m.headers.get('subject') ?? '')) as ReceivedMail;
      const resetToken = new URL(/https?:\/\/\S+token=\S+/.exec(reset.text)?.[0] ?? '').searchParams.get('token') as string;
      expect((await post('/auth/password-reset', { token: resetToken, password: 'a brand new password' })).status).toBe(200);
      expectError(await use(token), 400, 'validation_error');
    });

    test('an unconfirmed sign-up: the link confirms the address and drops the password chosen at sign-up (anyone could have chosen it)', async () => {
      const email = `unconfirmed${++serial}@example.com`;
      expect((await post('/auth/signup', { email, password: 'a planted password' })).status).toBe(202);
      await mailsTo(email);
      await post('/auth/magic-link', { email });
      const token = await mailedToken(email, 2);
      const signedIn = await use(token);
      expect(signedIn.status).toBe(200);
      expect((await call(url(), 'GET', '/api/v1/auth/session', { cookie: sessionOf(signedIn) })).body).toMatchObject({ user: { email, role: 'member' } });
      expectError(await call(url(), 'POST', '/api/v1/auth/login', { body: { email, password: 'a planted password' } }), 401, 'unauthorized');
      // Confirmed now: a new sign-up with the address changes nothing and mails a note, no link.
      await post('/auth/signup', { email, password: 'another password' });
      expect((await mailsTo(email, 3)).at(-1)?.headers.get('subject')).toMatch(/^You already have an account/);
    });

    test('tampered, foreign and missing tokens; bad addresses; a next of another site; cross-site posts', async () => {
      const account = await member();
      await post('/auth/magic-link', { email: account.email, next: '//evil.example/' });
      const token = await mailedToken(account.email);
      const [payload, mac] = token.split('.') as [string, string];
      const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), email: 'someone.else@example.com' })).toString('base64url')}.${mac}`;
      for (const bad of [forged, `${token}x`, 'not a token']) expectError(await use(bad), 400, 'validation_error');
      expect((await form('/auth/magic-link/sign-in', { token: 'not a token' })).headers.get('location')).toBe('/login?error=signin_link_expired');
      expect((await post('/auth/magic-link/sign-in', {})).body).toMatchObject({ code: 'validation_error', error: expect.stringMatching(/^`token` is required/) });
      expect((await form('/auth/magic-link/sign-in', {})).headers.get('location')).toBe('/login?error=signin_link_expired');
      expect((await form('/auth/magic-link/sign-in', { token })).headers.get('location')).toBe('/account/');

      expect((await post('/auth/magic-link', { email: 'not-an-address' })).body).toMatchObject({ code: 'validation_error', error: expect.stringMatching(/^`email` expected an e-mail address/) });
      expectError(await post('/auth/magic-link', {}), 400, 'validation_error');
      expect((await form('/auth/magic-link', { email: 'nope', next: '/deals/' })).headers.get('location')).toBe('/login?error=link_email&next=%2Fdeals%2F');
      const crossSite = await call(url(), 'POST', '/api/v1/auth/magic-link', { body: { email: account.email }, origin: 'https://evil.example' });
      expectError(crossSite, 403, 'forbidden');
      expectError(await call(url(), 'POST', '/api/v1/auth/magic-link/sign-in', { body: { token }, origin: 'https://evil.example' }), 403, 'forbidden');
    });

    test('the mail limits are those of sign-up and reset: 10 requests per client and hour together, 5 mails per address', async () => {
      const from = client();
      for (let i = 0; i < 9; i++) expect((await post('/auth/password-reset-request', { email: `nobody${i}@example.com` }, from)).status).toBe(202);
      expect((await post('/auth/magic-link', { email: `tenth${++serial}@example.com` }, from)).status).toBe(202);
      const over = await post('/auth/magic-link', { email: `eleventh${++serial}@example.com` }, from);
      expectError(over, 429, 'rate_limited');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      const overForm = await form('/auth/magic-link', { email: `twelfth${++serial}@example.com`, next: '/startups/' }, from);
      expect(overForm.headers.get('location')).toBe('/login?error=link_throttled&next=%2Fstartups%2F');

      const account = await member();
      for (let i = 0; i < 7; i++) expect((await post('/auth/magic-link', { email: account.email })).status).toBe(202);
      await mailsTo(account.email, 5);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(backing.smtp().received.filter((m) => m.to.includes(account.email))).toHaveLength(5);
    });
  });
}
