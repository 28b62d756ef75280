/**
 * People's own accounts (issue 18, item 2) over real HTTP, with mail through a real SMTP server
 * process on 127.0.0.1: sign-up, the confirmation link, sign-in only once confirmed; sign-up
 * and reset requests that answer the same whether or not an address has an account (the mail
 * tells its owner); a reset link that works once and ends every session; tampered, cross-purpose
 * and expired links refused; form posts redirected to pages that word the outcome; the mail
 * limit per address. A second server without SMTP writes the mail to DATA_DIR/outbox.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accountToken } from '../../functions/auth/account-mail.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { FIXTURES, startTestServer, type TestServer } from '../helpers/server.ts';
import { addAccount, callFrom } from '../helpers/writes-harness.ts';

let smtp: Receiver<ReceivedMail>;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer(join(FIXTURES, 'valid'), { SMTP_URL: smtp.url, SMTP_FROM: 'Deals <deals@example.com>', SESSION_SECRET: 'member-accounts-test-secret-0123456789abcdef' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/** Each test from its own address: the per-address mail limit is its own. */
let nextAddress = 10;
const newAddress = () => `127.0.9.${nextAddress++}`;
const post = (address: string, path: string, body: unknown) => callFrom(address, server.url, 'POST', `/api/v1${path}`, { body });
/** A browser's form post (from 127.0.0.1), its redirect not followed. */
const form = (path: string, fields: Record<string, string>) =>
  fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
    body: new URLSearchParams(fields),
  });
const signIn = (email: string, password: string) => post(newAddress(), '/auth/login', { email, password });

/** The mails to `to` so far, waiting for the first `count`. */
async function mailsTo(to: string, count = 1): Promise<ReceivedMail[]> {
  await expect.poll(() => smtp.received.filter((m) => m.to.includes(to)).length, { timeout: 5000 }).toBeGreaterThanOrEqual(count);
  return smtp.received.filter((m) => m.to.includes(to));
}
const linkIn = (mail: ReceivedMail): string => /https?:\/\/\S+/.exec(mail.text.split('\n').find((l) => /token=/.test(l)) ?? '')?.[0] ?? '';
/** The token of a mailed link. */
const tokenOf = (link: string) => new URL(link).searchParams.get('token') as string;
/** What the button of the confirmation page does: POST the link's token. */
const confirm = (link: string) => post(newAddress(), '/auth/verify', { token: tokenOf(link) });

describe('sign-up', () => {
  test('a member signs up, cannot sign in before confirming, follows the mailed link, then signs in as a member', async () => {
    const email = 'new.founder@example.com';
    const answer = await post(newAddress(), '/auth/signup', { email: 'New.Founder@Example.com', password: 'a long enough password' });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ success: true, message: expect.stringContaining('Check your e-mail') });
    const [mail] = await mailsTo(email);
    expect(mail?.headers.get('subject')).toMatch(/^Confirm your e-mail address for /);
    const link = linkIn(mail as ReceivedMail);
    // A page whose button confirms: opening the link (a mail scanner does) confirms nothing.
    expect(new URL(link).pathname).toBe('/confirm-email');
    expect((await fetch(`${server.url}/api/v1/auth/verify?token=${encodeURIComponent(tokenOf(link))}`)).status).toBe(405);

    const refused = await signIn(email, 'a long enough password');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', error: expect.stringContaining('Confirm your e-mail address first') });

    const confirmed = await form('/auth/verify', { token: tokenOf(link) });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/login?verified=1');
    const signedIn = await signIn(email, 'a long enough password');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ user: { email, role: 'member' } });
    // A member is no admin.
    const cookie = (signedIn.headers.getSetCookie().find((c) => c.startsWith('deals_session=')) as string).split(';')[0] as string;
    expect((await callFrom(newAddress(), server.url, 'GET', '/api/v1/admin/submissions', { cookie })).status).toBe(403);
  });

  test('signing up with an address that has an account answers the same, changes nothing, and tells its owner by mail', async () => {
    addAccount(server.config.dataDir, { email: 'taken@example.com', role: 'admin', password: 'the-admins-password' });
    const answer = await post(newAddress(), '/auth/signup', { email: 'taken@example.com', password: 'an attackers password' });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ success: true, message: expect.stringContaining('Check your e-mail') });
    const [mail] = await mailsTo('taken@example.com');
    expect(mail?.headers.get('subject')).toMatch(/^You already have an account on /);
    expect(mail?.text).not.toMatch(/token=/);
    expect((await signIn('taken@example.com', 'an attackers password')).status).toBe(401);
    expect((await signIn('taken@example.com', 'the-admins-password')).body).toMatchObject({ user: { role: 'admin' } });
  });

  test('a newer sign-up owns an unconfirmed address: its password counts, and the earlier link confirms nothing', async () => {
    const email = 'twice@example.com';
    // Someone signs up with another's address first; then the owner signs up.
    await post(newAddress(), '/auth/signup', { email, password: 'the first password' });
    await post(newAddress(), '/auth/signup', { email, password: 'the owners password' });
    const mails = await mailsTo(email, 2);
    expect(mails.map((m) => m.headers.get('subject'))).toEqual([expect.stringMatching(/^Confirm/), expect.stringMatching(/^Confirm/)]);
    expect((await confirm(linkIn(mails[0] as ReceivedMail))).status).toBe(400);
    expect((await confirm(linkIn(mails[1] as ReceivedMail))).status).toBe(200);
    expect((await signIn(email, 'the first password')).status).toBe(401);
    expect((await signIn(email, 'the owners password')).status).toBe(200);
    // Confirmed: a later sign-up changes nothing and mails no link.
    await post(newAddress(), '/auth/signup', { email, password: 'a third password' });
    const [last] = (await mailsTo(email, 3)).slice(-1);
    expect(last?.headers.get('subject')).toMatch(/^You already have an account/);
    expect((await signIn(email, 'a third password')).status).toBe(401);
  });

  test('bad bodies are 400 with the field named; cross-site posts are refused', async () => {
    const short = await post(newAddress(), '/auth/signup', { email: 'x@example.com', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 'validation_error', error: '`password` must have at least 8 characters.' });
    const noEmail = await post(newAddress(), '/auth/signup', { email: 'not-an-address', password: 'long enough password' });
    expect(noEmail.body).toMatchObject({ code: 'validation_error', error: expect.stringMatching(/^`email` expected an e-mail address/) });
    const crossSite = await fetch(`${server.url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify({ email: 'x@example.com', password: 'long enough password' }),
    });
    expect(crossSite.status).toBe(403);
  });

  test('form posts are redirected to the page, which words the outcome (nothing typed is echoed)', async () => {
    const sent = await form('/auth/signup', { email: 'form.user@example.com', password: 'long enough password' });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe('/signup?sent=1');
    const bad = await form('/auth/signup', { email: 'form.user@example.com', password: 'short' });
    expect(bad.headers.get('location')).toBe('/signup?error=password');
  });

  test('at most 10 requests that send mail per address and hour', async () => {
    const address = newAddress();
    for (let i = 0; i < 10; i++) expect((await post(address, '/auth/password-reset-request', { email: `nobody${i}@example.com` })).status).toBe(202);
    const over = await post(address, '/auth/signup', { email: 'eleventh@example.com', password: 'long enough password' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(smtp.received.some((m) => m.to.includes('eleventh@example.com'))).toBe(false);
  });
});

describe('password reset', () => {
  const email = 'resetter@example.com';
  beforeAll(() => addAccount(server.config.dataDir, { email, role: 'member', password: 'the old password' }));

  test('the mailed link sets a new password once, ends the old sessions, and cannot be used again', async () => {
    // The server reads accounts the CLI added within 2 s.
    let before = await signIn(email, 'the old password');
    await expect.poll(async () => (before = await signIn(email, 'the old password')).status, { timeout: 5000 }).toBe(200);
    const oldCookie = (before.headers.getSetCookie().find((c) => c.startsWith('deals_session=')) as string).split(';')[0] as string;
    const asked = await post(newAddress(), '/auth/password-reset-request', { email: 'Resetter@example.com' });
    expect(asked.status).toBe(202);
    const [mail] = await mailsTo(email);
    expect(mail?.headers.get('subject')).toMatch(/^Reset your password for /);
    const link = new URL(linkIn(mail as ReceivedMail));
    expect(link.pathname).toBe('/reset-password');
    const token = link.searchParams.get('token') as string;

    const reset = await post(newAddress(), '/auth/password-reset', { token, password: 'the new password' });
    expect(reset.status).toBe(200);
    expect((await signIn(email, 'the old password')).status).toBe(401);
    expect((await signIn(email, 'the new password')).status).toBe(200);
    expect((await callFrom(newAddress(), server.url, 'GET', '/api/v1/auth/session', { cookie: oldCookie })).status).toBe(401);
    const again = await post(newAddress(), '/auth/password-reset', { token, password: 'yet another password' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: expect.stringContaining('was used already') });
    const againForm = await form('/auth/password-reset', { token, password: 'yet another password' });
    expect(againForm.headers.get('location')).toBe('/forgot-password?error=link_expired');
  });

  test("editors' accounts and accounts without a password get no reset link (the answer is the same)", async () => {
    addAccount(server.config.dataDir, { email: 'editor@example.com', role: 'admin', password: 'the-editors-password' });
    addAccount(server.config.dataDir, { email: 'sso-member@example.com', role: 'member', password: '' });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const before = smtp.received.length;
    for (const email of ['editor@example.com', 'sso-member@example.com']) {
      const answer = await post(newAddress(), '/auth/password-reset-request', { email });
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual({ success: true, message: expect.stringContaining('If the address has an account') });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.length).toBe(before);
  });

  test('at most 5 mails an hour to one address, however many clients ask (the answer stays the same)', async () => {
    const email = 'flooded@example.com';
    for (let i = 0; i < 8; i++) expect((await post(newAddress(), '/auth/signup', { email, password: `password number ${i}` })).status).toBe(202);
    await mailsTo(email, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(5);
  });

  test('an address without an account gets the same answer and no mail', async () => {
    const before = smtp.received.length;
    const answer = await post(newAddress(), '/auth/password-reset-request', { email: 'nobody-here@example.com' });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ success: true, message: expect.stringContaining('If the address has an account') });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.length).toBe(before);
  });

  test('tampered, cross-purpose and expired tokens are refused', async () => {
    const account = { email, generation: 'whatever' };
    const secret = 'member-accounts-test-secret-0123456789abcdef';
    const verifyToken = accountToken('verify', account, secret, Date.now());
    const expired = accountToken('reset', account, secret, Date.now() - 2 * 3600 * 1000);
    const forged = accountToken('reset', account, 'another-secret-of-enough-length-0123456789', Date.now());
    for (const token of [verifyToken, expired, forged, `${verifyToken}x`, 'not a token'])
      expect((await post(newAddress(), '/auth/password-reset', { token, password: 'long enough password' })).status).toBe(400);
    // A confirmation link made with the reset key is no confirmation link either.
    const crossed = await form('/auth/verify', { token: accountToken('reset', account, secret, Date.now()) });
    expect(crossed.headers.get('location')).toBe('/login?error=link_expired');
  });
});

test('without SMTP_URL, the mail is written to DATA_DIR/outbox and the log says where', async () => {
  const quiet = await startTestServer(join(FIXTURES, 'valid'));
  try {
    const answer = await callFrom('127.0.9.250', quiet.url, 'POST', '/api/v1/auth/signup', { body: { email: 'outbox@example.com', password: 'long enough password' } });
    expect(answer.status).toBe(202);
    const outbox = join(quiet.config.dataDir, 'outbox');
    await expect.poll(async () => (await readdir(outbox).catch(() => [])).length).toBe(1);
    const [file] = await readdir(outbox);
    const text = await readFile(join(outbox, file as string), 'utf8');
    expect(text).toMatch(/^To: outbox@example.com\nSubject: Confirm your e-mail address/);
    expect(text).toMatch(/\/confirm-email\?token=/);
    expect(quiet.lines.some((l) => l.includes('"event":"account_mail_in_outbox"'))).toBe(true);
  } finally {
    await quiet.stop();
  }
});
