/**
 * OpenID Connect sign-in and sign-up (issue 3, issue 18 item 2; DESIGN "Sign-in": identity
 * delegated to an external provider) against a real `oidc-provider` on 127.0.0.1: the whole
 * authorization code flow with PKCE, state and nonce; the account book decides the role, and a
 * verified address it does not have becomes a member; `next` kept through the flow; every way
 * the flow can fail ends on the login page with a reason and no session.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openAccountStore } from '../../functions/auth/account-store.ts';
import { OIDC_CALLBACK_PATH } from '../../functions/auth/oidc-login.ts';
import { CookieJar, signInThroughProvider, startOidcProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { call, expectError, git, startWriteServer, takeErrors, uniqueWord, type WriteServer } from '../helpers/writes-harness.ts';

/** Provider logins → what the provider asserts about them. */
const USERS = {
  ada: { email: 'ada.sso@example.com', emailVerified: true },
  mel: { email: 'Mel.SSO@example.com', emailVerified: true },
  stranger: { email: 'New.Comer@example.com', emailVerified: true },
  twice: { email: 'twice@example.com', emailVerified: true },
  traveller: { email: 'traveller@example.com', emailVerified: true },
  victim: { email: 'victim@example.com', emailVerified: true },
  unverified: { email: 'unverified@example.com', emailVerified: false },
  unverifiedStranger: { email: 'unverified.stranger@example.com', emailVerified: false },
};
/** Accounts in the site's book: SSO-only (no password). */
const SSO_ADMIN = { email: 'ada.sso@example.com', role: 'admin' as const, password: '' };
const SSO_MEMBER = { email: 'mel.sso@example.com', role: 'member' as const, password: '' };
const UNVERIFIED = { email: 'unverified@example.com', role: 'admin' as const, password: '' };

let provider: TestProvider;
let site: WriteServer;

beforeAll(async () => {
  provider = await startOidcProvider(USERS);
  site = await startWriteServer([SSO_ADMIN, SSO_MEMBER, UNVERIFIED], {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: 'Test Provider',
    // Many more sign-ins a minute from 127.0.0.1 than the `auth` limit lets through: that limit is tested in http-rules.
    RATE_LIMITS: 'off',
  });
  provider.allowRedirect(`${site.url}${OIDC_CALLBACK_PATH}`);
});

afterAll(async () => {
  await site?.stop();
  await provider?.stop();
});

afterEach(() => {
  expect(takeErrors(site.server)).toEqual([]);
});

async function signIn(login: string, start = '/api/v1/auth/oidc'): Promise<{ response: Response; jar: CookieJar }> {
  const jar = new CookieJar();
  const response = await signInThroughProvider(`${site.url}${start}`, login, jar, site.url);
  return { response, jar };
}

/** The account the site's database has for `email` (read as the server reads it). */
async function storedAccount(email: string) {
  const store = await openAccountStore({ dataDir: site.dataDir });
  try {
    return await store.find(email);
  } finally {
    await store.close();
  }
}

describe('sign-in through the provider', () => {
  test('an admin in the account book lands on /admin/ with a session that can write', async () => {
    const { response, jar } = await signIn('ada');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin/');
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('deals_session='));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    // The flow cookie is spent.
    expect(jar.get('deals_oidc')).toBeUndefined();

    const cookie = `deals_session=${jar.get('deals_session')}`;
    const session = await call(site.url, 'GET', '/api/v1/auth/session', { cookie });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { email: SSO_ADMIN.email, role: 'admin' } });

    const title = uniqueWord('sso');
    const created = await call(site.url, 'POST', '/api/v1/deals', {
      cookie,
      body: { title: `SSO deal ${title}`, provider: 'Sso Co', category: 'cloud-credits', applicationUrl: 'https://sso.example/apply' },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ success: true, deal: { title: `SSO deal ${title}` } });
    // The commit names the person the provider vouched for.
    expect(git(site.repo, 'log', '-1', '--format=%ae').trim()).toBe(SSO_ADMIN.email);
  });

  test('a member (e-mail matched case-insensitively) lands on the member dashboard and gets 403 on writes', async () => {
    const { response, jar } = await signIn('mel');
    expect(response.headers.get('location')).toBe('/account/');
    const cookie = `deals_session=${jar.get('deals_session')}`;
    const session = await call(site.url, 'GET', '/api/v1/auth/session', { cookie });
    expect(session.body).toMatchObject({ user: { email: SSO_MEMBER.email, role: 'member' } });
    expectError(await call(site.url, 'DELETE', '/api/v1/deals?slug=anything', { cookie }), 403, 'forbidden');
  });

  test("someone signed up with another's address and never confirmed it: the owner's provider sign-in claims it, the planted password stops working", async () => {
    const planted = await call(site.url, 'POST', '/api/v1/auth/signup', { body: { email: 'victim@example.com', password: 'the planted password' } });
    expect(planted.status).toBe(202);
    const { response, jar } = await signIn('victim');
    expect(response.headers.get('location')).toBe('/account/');
    const session = await call(site.url, 'GET', '/api/v1/auth/session', { cookie: `deals_session=${jar.get('deals_session')}` });
    expect(session.body).toMatchObject({ user: { email: 'victim@example.com', role: 'member' } });
    expectError(await call(site.url, 'POST', '/api/v1/auth/login', { body: { email: 'victim@example.com', password: 'the planted password' } }), 401, 'unauthorized');
  });

  test('the start redirect carries PKCE (S256), state and nonce, and sets a short-lived flow cookie', async () => {
    const response = await fetch(`${site.url}/api/v1/auth/oidc`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const target = new URL(response.headers.get('location') as string);
    expect(target.origin).toBe(provider.issuer);
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(target.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(target.searchParams.get('state')).toBeTruthy();
    expect(target.searchParams.get('nonce')).toBeTruthy();
    expect(target.searchParams.get('redirect_uri')).toBe(`${site.url}${OIDC_CALLBACK_PATH}`);
    const flow = response.headers.getSetCookie().find((c) => c.startsWith('deals_oidc='));
    expect(flow).toMatch(/Max-Age=600/);
    expect(flow).toMatch(/HttpOnly/);
  });
});

describe('sign-up through the provider', () => {
  test('a verified address without an account becomes a member (no password, confirmed) and lands on the dashboard', async () => {
    const logged = site.server.lines.length;
    const { response, jar } = await signIn('stranger');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account/');
    const session = await call(site.url, 'GET', '/api/v1/auth/session', { cookie: `deals_session=${jar.get('deals_session')}` });
    expect(session.body).toMatchObject({ user: { email: 'new.comer@example.com', role: 'member' } });
    const stored = await storedAccount('new.comer@example.com');
    expect(stored).toMatchObject({ email: 'new.comer@example.com', role: 'member', emailVerifiedAt: expect.any(String) });
    expect(stored?.passwordHash).toBeUndefined();
    const events = site.server.lines.slice(logged).map((line) => (JSON.parse(line) as { event?: string }).event);
    expect(events).toContain('sso sign-up');
    // No password to sign in with, and members cannot write.
    expectError(await call(site.url, 'POST', '/api/v1/auth/login', { body: { email: 'new.comer@example.com', password: 'anything-at-all' } }), 401, 'unauthorized');
    expectError(await call(site.url, 'DELETE', '/api/v1/deals?slug=anything', { cookie: `deals_session=${jar.get('deals_session')}` }), 403, 'forbidden');
  });

  test('signing in again finds the same account (signed up once), also when two sign-ins finish at once', async () => {
    const logged = site.server.lines.length;
    const [first, second] = await Promise.all([signIn('twice'), signIn('twice')]);
    for (const { response } of [first, second]) expect(response.headers.get('location')).toBe('/account/');
    const third = await signIn('twice');
    expect(third.response.headers.get('location')).toBe('/account/');
    const events = site.server.lines.slice(logged).map((line) => (JSON.parse(line) as { event?: string }).event);
    expect(events.filter((e) => e === 'sso sign-up')).toHaveLength(1);
    expect(events.filter((e) => e === 'sso sign-in')).toHaveLength(3);
  });

  test('the page to come back to is kept through the flow (a path of this site only)', async () => {
    expect((await signIn('traveller', `/api/v1/auth/oidc?next=${encodeURIComponent('/deals/?search=cloud')}`)).response.headers.get('location')).toBe('/deals/?search=cloud');
    expect((await signIn('traveller', `/api/v1/auth/oidc?next=${encodeURIComponent('//evil.example/')}`)).response.headers.get('location')).toBe('/account/');
    expect((await signIn('ada', `/api/v1/auth/oidc?next=${encodeURIComponent('/admin/submissions/')}`)).response.headers.get('location')).toBe('/admin/submissions/');
  });

  test('an address the provider has not verified gets no account: the login page says why', async () => {
    const { response, jar } = await signIn('unverifiedStranger');
    expect(response.headers.get('location')).toBe('/login?error=sso_unverified');
    expect(jar.get('deals_session')).toBeUndefined();
    expect(await storedAccount(USERS.unverifiedStranger.email)).toBeUndefined();
  });
});

describe('refusals end on the login page without a session', () => {
  const expectRefused = (response: Response, jar: CookieJar, reason: string): void => {
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/login?error=${reason}`);
    expect(jar.get('deals_session')).toBeUndefined();
  };

  test('an e-mail the provider has not verified, even with an account', async () => {
    const { response, jar } = await signIn('unverified');
    expectRefused(response, jar, 'sso_unverified');
  });

  test('a callback whose state does not match the flow cookie', async () => {
    const start = await fetch(`${site.url}/api/v1/auth/oidc`, { redirect: 'manual' });
    const jar = new CookieJar();
    jar.take(start);
    const response = await fetch(`${site.url}${OIDC_CALLBACK_PATH}?code=forged&state=forged&iss=${encodeURIComponent(provider.issuer)}`, {
      redirect: 'manual',
      headers: { Cookie: jar.header() },
    });
    jar.take(response);
    expectRefused(response, jar, 'sso_failed');
  });

  test('a callback without the flow cookie (expired, or started in another browser)', async () => {
    const jar = new CookieJar();
    const response = await fetch(`${site.url}${OIDC_CALLBACK_PATH}?code=x&state=y`, { redirect: 'manual' });
    expectRefused(response, jar, 'sso_expired');
  });

  test('a tampered flow cookie counts as none', async () => {
    const start = await fetch(`${site.url}/api/v1/auth/oidc`, { redirect: 'manual' });
    const value = start.headers.getSetCookie()[0]?.split(';')[0]?.split('=')[1] as string;
    const [payload, mac] = value.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), state: 'mine' })).toString('base64url');
    const response = await fetch(`${site.url}${OIDC_CALLBACK_PATH}?code=x&state=mine`, { redirect: 'manual', headers: { Cookie: `deals_oidc=${forged}.${mac}` } });
    expectRefused(response, new CookieJar(), 'sso_expired');
  });

  test('the person cancels at the provider', async () => {
    const response = await fetch(`${site.url}${OIDC_CALLBACK_PATH}?error=access_denied&state=x`, { redirect: 'manual' });
    expectRefused(response, new CookieJar(), 'sso_denied');
  });

  test('an SSO-only account has no password to sign in with', async () => {
    expectError(await call(site.url, 'POST', '/api/v1/auth/login', { body: { email: SSO_ADMIN.email, password: 'anything-at-all' } }), 401, 'unauthorized');
  });
});

describe('configuration', () => {
  test('the discovery note names the provider, and no endpoint is invented', async () => {
    const metadata = (await call(site.url, 'GET', '/.well-known/openid-configuration')).body as Record<string, unknown>;
    expect(metadata['x-note']).toContain(provider.issuer);
    expect(metadata).not.toHaveProperty('authorization_endpoint');
    expect(metadata.issuer).not.toBe(provider.issuer);
  });

  test('an unreachable provider sends the browser back with provider_unavailable', async () => {
    const down = await startWriteServer([SSO_ADMIN], { OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'x' });
    try {
      const response = await fetch(`${down.url}/api/v1/auth/oidc`, { redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/login?error=provider_unavailable');
      expect(takeErrors(down.server)).toEqual([]);
    } finally {
      await down.stop();
    }
  });

  test('without a provider configured the routes are a JSON 404', async () => {
    const plain = await startWriteServer([]);
    try {
      expectError(await call(plain.url, 'GET', '/api/v1/auth/oidc'), 404, 'not_found');
      expectError(await call(plain.url, 'GET', OIDC_CALLBACK_PATH), 404, 'not_found');
    } finally {
      await plain.stop();
    }
  });
});
