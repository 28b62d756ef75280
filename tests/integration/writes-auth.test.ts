/**
 * Sign-in and the guard in front of admin writes, on the real server with real local accounts
 * (DESIGN "Sign-in"; SPEC "Authentication"): login sets an HTTP-only SameSite cookie, the
 * session endpoint reflects it, logout clears it, failed sign-ins are throttled, and a write
 * needs a valid admin session plus a same-origin request.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, test } from 'vitest';
import { signSession } from '../../functions/auth/session.ts';
import { ADMIN, call, callFrom, expectError, expectUnchanged, login, MEMBER, PROJECT_ROOT, repoState, uniqueWord, useWriteServer, type WriteServer } from '../helpers/writes-harness.ts';

/** Only the throttling test signs in (and fails) as this account, so its lock-out touches nothing else. */
const TARGET = { email: 'tara@example.com', role: 'member' as const, password: 'target-password-3' };
/** An admin whose account is removed while signed in. */
const LEAVER = { email: 'leo@example.com', role: 'admin' as const, password: 'leaver-password-4' };

let env: WriteServer;
let adminCookie: string;
let memberCookie: string;

useWriteServer([ADMIN, MEMBER, TARGET, LEAVER], async (started) => {
  env = started;
  adminCookie = await login(env.url, ADMIN);
  memberCookie = await login(env.url, MEMBER);
});

/** The Set-Cookie lines of a response, for the session cookie only. */
function sessionCookies(headers: Headers): string[] {
  return headers.getSetCookie().filter((c) => c.startsWith('deals_session='));
}

/** A cookie whose signature no longer matches its payload. */
function tamper(cookie: string): string {
  const value = cookie.slice('deals_session='.length);
  const [payload, signature] = value.split('.') as [string, string];
  const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
  return `deals_session=${payload}.${flipped}`;
}

describe('POST /api/v1/auth/login (JSON)', () => {
  test('the right password answers 200 with the user and an HttpOnly, SameSite=Lax session cookie (no Secure on 127.0.0.1)', async () => {
    const result = await call(env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ success: true, user: { email: ADMIN.email, role: 'admin' } });
    const cookies = sessionCookies(result.headers);
    expect(cookies).toHaveLength(1);
    const attributes = (cookies[0] as string).split(';').map((part) => part.trim());
    expect(attributes[0]).toMatch(/^deals_session=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(attributes).toContain('HttpOnly');
    expect(attributes).toContain('SameSite=Lax');
    expect(attributes).toContain('Path=/');
    expect(attributes.some((a) => /^Max-Age=[1-9]\d*$/.test(a))).toBe(true);
    expect(attributes.map((a) => a.toLowerCase())).not.toContain('secure');
  });

  test('the e-mail is matched case-insensitively and the member role is reported', async () => {
    const result = await call(env.url, 'POST', '/api/v1/auth/login', { body: { email: `  ${MEMBER.email.toUpperCase()} `, password: MEMBER.password } });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ success: true, user: { email: MEMBER.email, role: 'member' } });
  });

  test('a wrong password and an unknown e-mail both answer 401 unauthorized, with the same message and no cookie', async () => {
    const wrong = await callFrom('127.0.2.1', env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: 'not-the-password' } });
    const unknown = await callFrom('127.0.2.1', env.url, 'POST', '/api/v1/auth/login', { body: { email: 'nobody@example.com', password: 'whatever-123' } });
    const a = expectError(wrong, 401, 'unauthorized');
    const b = expectError(unknown, 401, 'unauthorized');
    expect(a.error).toBe(b.error);
    expect(sessionCookies(wrong.headers)).toEqual([]);
    expect(sessionCookies(unknown.headers)).toEqual([]);
  });

  test('missing fields answer 400 validation_error', async () => {
    expectError(await call(env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email } }), 400, 'validation_error');
  });

  test('a sign-in from another site (foreign Origin) is refused with 403 forbidden', async () => {
    const result = await call(env.url, 'POST', '/api/v1/auth/login', { origin: 'https://evil.example', body: { email: ADMIN.email, password: ADMIN.password } });
    expectError(result, 403, 'forbidden');
    expect(sessionCookies(result.headers)).toEqual([]);
  });
});

describe('login throttling', () => {
  test('5 failures from one address for one e-mail: the 6th attempt from that pair is 429 rate_limited with Retry-After, even with the right password', async () => {
    for (let i = 1; i <= 5; i++) {
      const result = await callFrom('127.0.3.1', env.url, 'POST', '/api/v1/auth/login', { body: { email: TARGET.email, password: `wrong-${i}-password` } });
      expectError(result, 401, 'unauthorized');
    }
    const blocked = await callFrom('127.0.3.1', env.url, 'POST', '/api/v1/auth/login', { body: { email: TARGET.email, password: TARGET.password } });
    expectError(blocked, 429, 'rate_limited');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(sessionCookies(blocked.headers)).toEqual([]);
  });

  test('a stranger cannot lock a known account out: after 5 failures from each of 3 other addresses, its owner signs in from their own', async () => {
    for (const stranger of ['127.0.3.11', '127.0.3.12', '127.0.3.13']) {
      for (let i = 1; i <= 5; i++) expectError(await callFrom(stranger, env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: `guess-${i}-password` } }), 401, 'unauthorized');
      expectError(await callFrom(stranger, env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: 'guess-6-password' } }), 429, 'rate_limited');
    }
    const owner = await callFrom('127.0.3.20', env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(owner.status, owner.text).toBe(200);
  });

  test('a success resets the pair: 4 failures, the right password, then 5 more failures before a 429', async () => {
    const from = '127.0.3.30';
    const attempt = (password: string) => callFrom(from, env.url, 'POST', '/api/v1/auth/login', { body: { email: MEMBER.email, password } });
    for (let i = 1; i <= 4; i++) expectError(await attempt(`wrong-${i}-password`), 401, 'unauthorized');
    expect((await attempt(MEMBER.password)).status).toBe(200);
    for (let i = 1; i <= 5; i++) expectError(await attempt(`again-${i}-password`), 401, 'unauthorized');
    expectError(await attempt(MEMBER.password), 429, 'rate_limited');
  });

  test('after 20 failures from one address the next attempt from it is 429, whatever the e-mail', async () => {
    for (let i = 1; i <= 20; i++) {
      const result = await callFrom('127.0.4.1', env.url, 'POST', '/api/v1/auth/login', { body: { email: `stranger${i}@example.com`, password: 'wrong-password' } });
      expectError(result, 401, 'unauthorized');
    }
    const blocked = await callFrom('127.0.4.1', env.url, 'POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    expectError(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('a parallel burst of 20 wrong passwords for one pair gets exactly 5 evaluated (401) and 15 refused (429)', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => callFrom('127.0.4.50', env.url, 'POST', '/api/v1/auth/login', { body: { email: TARGET.email, password: `burst-${i}-password` } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});

describe('form sign-in (no JavaScript)', () => {
  /** POST the login form as a browser would. */
  async function formLogin(email: string, password: string, from: string): Promise<Awaited<ReturnType<typeof callFrom>>> {
    return callFrom(from, env.url, 'POST', '/api/v1/auth/login', {
      rawBody: new URLSearchParams({ email, password }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  }

  test('an admin is redirected (303) to /admin/ with the session cookie, which then works', async () => {
    const result = await formLogin(ADMIN.email, ADMIN.password, '127.0.5.1');
    expect(result.status).toBe(303);
    expect(result.headers.get('location')).toBe('/admin/');
    const cookies = sessionCookies(result.headers);
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toContain('HttpOnly');
    const cookie = (cookies[0] as string).split(';')[0] as string;
    const session = await call(env.url, 'GET', '/api/v1/auth/session', { cookie });
    expect(session.status).toBe(200);
    expect((session.body as { user: unknown }).user).toEqual({ email: ADMIN.email, role: 'admin' });
  });

  test('a member is redirected to the member dashboard, /account/', async () => {
    const result = await formLogin(MEMBER.email, MEMBER.password, '127.0.5.2');
    expect(result.status).toBe(303);
    expect(result.headers.get('location')).toBe('/account/');
    expect(sessionCookies(result.headers)).toHaveLength(1);
  });

  test('a wrong password is redirected to /login?error=invalid without a cookie', async () => {
    const result = await formLogin(ADMIN.email, 'wrong-password', '127.0.5.3');
    expect(result.status).toBe(303);
    expect(result.headers.get('location')).toBe('/login?error=invalid');
    expect(sessionCookies(result.headers)).toEqual([]);
  });
});

describe('GET /api/v1/auth/session and POST /api/v1/auth/logout', () => {
  test('with the cookie: 200 with the user and a future expiry', async () => {
    const result = await call(env.url, 'GET', '/api/v1/auth/session', { cookie: adminCookie });
    expect(result.status, result.text).toBe(200);
    const body = result.body as { success: boolean; user: unknown; expiresAt: string };
    expect(body.success).toBe(true);
    expect(body.user).toEqual({ email: ADMIN.email, role: 'admin' });
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
  });

  test('without a cookie, or with a tampered one: 401 unauthorized', async () => {
    expectError(await call(env.url, 'GET', '/api/v1/auth/session'), 401, 'unauthorized');
    expectError(await call(env.url, 'GET', '/api/v1/auth/session', { cookie: tamper(adminCookie) }), 401, 'unauthorized');
    expectError(await call(env.url, 'GET', '/api/v1/auth/session', { cookie: 'deals_session=garbage' }), 401, 'unauthorized');
  });

  test('logout answers 200 and clears the cookie with Max-Age=0', async () => {
    const cookie = await login(env.url, ADMIN);
    const result = await call(env.url, 'POST', '/api/v1/auth/logout', { cookie });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ success: true });
    const cleared = sessionCookies(result.headers);
    expect(cleared).toHaveLength(1);
    const attributes = (cleared[0] as string).split(';').map((a) => a.trim());
    expect(attributes[0]).toBe('deals_session=');
    expect(attributes).toContain('Max-Age=0');
    expect(attributes).toContain('Path=/');
  });
});

describe('sessions signed with the real secret', () => {
  /** A cookie signed with the server's own secret (kept in DATA_DIR when SESSION_SECRET is unset), carrying the account's generation unless told otherwise. */
  function signed(session: { email: string; role: 'admin' | 'member'; exp: number; gen?: string }): string {
    const secret = readFileSync(join(env.dataDir, 'session-secret'), 'utf8').trim();
    return `deals_session=${signSession({ gen: generationOf(session.email), sid: `test-${Math.random()}`, ...session }, secret)}`;
  }
  /** The account's session generation as the accounts database holds it (read on its own connection, read-only). */
  function generationOf(email: string): string {
    const db = new DatabaseSync(join(env.dataDir, 'database.sqlite'), { readOnly: true });
    try {
      return (db.prepare('SELECT generation FROM accounts WHERE email = ?').get(email) as { generation: string } | undefined)?.generation ?? '';
    } finally {
      db.close();
    }
  }
  const now = () => Math.floor(Date.now() / 1000);
  // From an address of their own, so these calls never eat into 127.0.0.1's sign-in rate budget.
  const from = '127.0.8.1';
  const session = (cookie: string) => callFrom(from, env.url, 'GET', '/api/v1/auth/session', { cookie });
  const write = (cookie: string) => callFrom(from, env.url, 'PUT', '/api/v1/deals', { cookie, body: { slug: 'aws-activate', value: 'Signed session test' } });

  test('control: a fresh admin session signed this way is accepted', async () => {
    const cookie = signed({ email: ADMIN.email, role: 'admin', exp: now() + 600 });
    expect((await session(cookie)).status).toBe(200);
  });

  test('an expired session is 401 on session and on writes', async () => {
    const cookie = signed({ email: ADMIN.email, role: 'admin', exp: now() - 1 });
    expectError(await session(cookie), 401, 'unauthorized');
    expectError(await write(cookie), 401, 'unauthorized');
  });

  test('a session for an e-mail with no account is 401', async () => {
    const cookie = signed({ email: 'ghost@example.com', role: 'admin', exp: now() + 600 });
    expectError(await write(cookie), 401, 'unauthorized');
  });

  test('a session from an earlier generation of the account (before a sign-out everywhere) is 401', async () => {
    const cookie = signed({ email: ADMIN.email, role: 'admin', exp: now() + 600, gen: 'an-earlier-generation' });
    expectError(await session(cookie), 401, 'unauthorized');
    expectError(await write(cookie), 401, 'unauthorized');
  });

  test('the role comes from the account, not the cookie: a member session claiming admin is 403', async () => {
    const cookie = signed({ email: MEMBER.email, role: 'admin', exp: now() + 600 });
    expectError(await write(cookie), 403, 'forbidden');
  });

  test('removing an account (npm run admin -- remove) ends its sessions within seconds', async () => {
    const cookie = await login(env.url, LEAVER);
    expect((await session(cookie)).status).toBe(200);
    execFileSync(process.execPath, ['scripts/admin.ts', 'remove', LEAVER.email], { cwd: PROJECT_ROOT, env: { ...process.env, DATA_DIR: env.dataDir }, stdio: 'pipe' });
    const deadline = Date.now() + 4000;
    let status = 200;
    while (Date.now() < deadline) {
      status = (await session(cookie)).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(401);
    expectError(await write(cookie), 401, 'unauthorized');
  });
});

describe('guard on admin writes (POST, PUT, DELETE /api/v1/deals)', () => {
  /** A write of each method that would succeed for an admin from the site itself. */
  function writes(): Array<{ method: string; path: string; body?: unknown }> {
    const word = uniqueWord();
    return [
      { method: 'POST', path: '/api/v1/deals', body: { title: `Guard ${word}`, provider: 'Guard Co', category: 'cloud-credits', applicationUrl: 'https://guard.example/apply' } },
      { method: 'PUT', path: '/api/v1/deals', body: { slug: 'aws-activate', value: `Changed ${word}` } },
      { method: 'DELETE', path: '/api/v1/deals?slug=techstars' },
    ];
  }

  const refusals: Array<{ name: string; status: number; code: string; options: () => { cookie?: string; origin?: string | null; headers?: Record<string, string> } }> = [
    { name: 'no session cookie', status: 401, code: 'unauthorized', options: () => ({}) },
    { name: 'a tampered cookie', status: 401, code: 'unauthorized', options: () => ({ cookie: tamper(adminCookie) }) },
    { name: 'a cookie with a forged payload', status: 401, code: 'unauthorized', options: () => ({ cookie: forgeAdmin(memberCookie) }) },
    { name: 'a member session', status: 403, code: 'forbidden', options: () => ({ cookie: memberCookie }) },
    { name: 'an admin session from a foreign Origin', status: 403, code: 'forbidden', options: () => ({ cookie: adminCookie, origin: 'https://evil.example' }) },
    { name: 'an admin session with Origin: null', status: 403, code: 'forbidden', options: () => ({ cookie: adminCookie, origin: 'null' }) },
    { name: 'an admin session with no Origin at all', status: 403, code: 'forbidden', options: () => ({ cookie: adminCookie, origin: null }) },
    {
      name: 'an admin session, no Origin, Sec-Fetch-Site: cross-site',
      status: 403,
      code: 'forbidden',
      options: () => ({ cookie: adminCookie, origin: null, headers: { 'Sec-Fetch-Site': 'cross-site' } }),
    },
  ];

  for (const refusal of refusals) {
    test(`${refusal.name}: ${refusal.status} ${refusal.code} for every method, and nothing is committed`, async () => {
      const before = repoState(env.repo);
      for (const write of writes()) {
        const result = await call(env.url, write.method, write.path, { ...refusal.options(), body: write.body });
        expectError(result, refusal.status, refusal.code);
      }
      expectUnchanged(env.repo, before);
      expect((await call(env.url, 'GET', '/api/v1/deals?slug=techstars')).status).toBe(200);
    });
  }

  test('an admin session with Sec-Fetch-Site: same-origin and no Origin is accepted', async () => {
    const word = uniqueWord();
    const result = await call(env.url, 'POST', '/api/v1/deals', {
      cookie: adminCookie,
      origin: null,
      headers: { 'Sec-Fetch-Site': 'same-origin' },
      body: { title: `Same origin ${word}`, provider: 'Guard Co', category: 'cloud-credits', applicationUrl: 'https://guard.example/apply' },
    });
    expect(result.status, result.text).toBe(200);
  });

  test('the admin session cookie with the site Origin is accepted for PUT', async () => {
    const result = await call(env.url, 'PUT', '/api/v1/deals', { cookie: adminCookie, body: { slug: 'aws-activate', value: 'Up to $1,000 in AWS credits (guard)' } });
    expect(result.status, result.text).toBe(200);
  });
});

// --- internal ---

/** The member's cookie with its payload rewritten to claim the admin's e-mail (signature kept). */
function forgeAdmin(cookie: string): string {
  const value = cookie.slice('deals_session='.length);
  const [payload, signature] = value.split('.') as [string, string];
  const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const forged = Buffer.from(JSON.stringify({ ...session, email: ADMIN.email, role: 'admin' })).toString('base64url');
  return `deals_session=${forged}.${signature}`;
}
