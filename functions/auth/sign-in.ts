/**
 * Sign-in for the embedded local accounts: POST /api/v1/auth/login and /logout, GET
 * /api/v1/auth/session. Plain HTML form posts get redirects (the login page works without
 * JavaScript); JSON callers get JSON. Failed attempts are throttled (auth/login-throttle.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import type { RequestContext } from '../http/app.ts';
import { ApiError } from '../http/errors.ts';
import { isFormBody, readBody } from '../http/request-body.ts';
import { checkBody, validBody } from '../http/valid-body.ts';
import { SignInSchema, SignOutSchema } from '../../src/schemas/requests.ts';
import { currentSession, isSecureRequest, requireSameOrigin, type SessionDeps } from './guard.ts';
import { verifyPassword } from './passwords.ts';
import { sessionCookie, signedInHint, signSession } from './session.ts';
import { localPath } from '../../src/local-path.ts';
import { paths } from '../../src/agents/site-urls.ts';
import { normalizeEmail, type Account } from './users.ts';

/**
 * The sign-in page with `query` (what went wrong, or good news), keeping the page to come back to
 * (a path of this site only).
 * @example loginPage('link-sent=1', '/deals/') // '/login?link-sent=1&next=%2Fdeals%2F'
 */
export function loginPage(query: string, next: unknown): string {
  const back = localPath(next);
  return `${paths.login}?${query}${back ? `&next=${encodeURIComponent(back)}` : ''}`;
}

/** The sign-in page again with what went wrong, keeping the page to come back to. */
export const loginAgain = (error: string, next: unknown): string => loginPage(`error=${error}`, next);

export async function postLogin(request: Request, deps: SessionDeps & Pick<Deps, 'config'>, context: RequestContext): Promise<Response> {
  const form = isFormBody(request);
  requireSameOrigin(request, deps);
  // Read without the schema's trimming: a password is taken exactly as typed.
  const checked = checkBody(SignInSchema, await readBody(request, 16 * 1024));
  if (!checked.ok) {
    if (form) return redirect(loginAgain('missing', undefined));
    throw checked.error;
  }
  const email = normalizeEmail(checked.value.email);
  const { password } = checked.value;

  const now = deps.clock().getTime();
  // The failure is reserved before the password is checked: parallel guesses cannot all pass.
  const throttle = await deps.auth.loginThrottle.begin(context.address, email, now);
  if (!('attempt' in throttle)) {
    if (form) return redirect(loginAgain('throttled', checked.value.next));
    throw new ApiError(429, 'rate_limited', 'Too many failed sign-in attempts.', {
      hint: `Try again in ${throttle.retryAfterSeconds} seconds.`,
      headers: { 'Retry-After': String(throttle.retryAfterSeconds) },
    });
  }

  let account: Account | undefined;
  let valid: boolean;
  try {
    account = await deps.auth.accounts.find(email, now);
    // Verify against a dummy hash when the account is unknown, so timing does not reveal it.
    valid = await verifyPassword(password, account?.passwordHash || DUMMY_HASH);
  } catch (error) {
    await deps.auth.loginThrottle.abandon(throttle.attempt);
    throw error;
  }
  if (!account?.passwordHash || !valid) {
    if (form) return redirect(loginAgain('invalid', checked.value.next));
    throw new ApiError(401, 'unauthorized', 'The e-mail or password is not right.', { hint: 'Check both and try again.' });
  }
  await deps.auth.loginThrottle.succeeded(throttle.attempt);
  // A member who signed up signs in once the address is confirmed (the link mailed at sign-up).
  if (!account.emailVerifiedAt) {
    if (form) return redirect(loginAgain('unverified', checked.value.next));
    throw new ApiError(403, 'forbidden', 'Confirm your e-mail address first: the link is in the mail sent when you signed up.', { hint: 'Sign up again with the same address to get a new link.' });
  }

  const cookies = newSessionCookies(request, deps, account, now);
  // A form may name the page to come back to (a save button sent the person here): a path of this site only.
  if (form) return redirect(localPath(checked.value.next) ?? landingPage(account), ...cookies);
  return signedInAnswer(request, account, cookies);
}

/** The JSON answer of a sign-in (`SessionAnswer`) with the session's cookies. */
export async function signedInAnswer(request: Request, account: Account, cookies: readonly string[]): Promise<Response> {
  const response = await answerResponse(request, jsonAnswer(200, { success: true, user: { email: account.email, role: account.role } }, { 'Cache-Control': 'no-store' }));
  for (const cookie of cookies) response.headers.append('Set-Cookie', cookie);
  return response;
}

/**
 * Sign out: the session this request carries is revoked until it would have expired (a copy of
 * the cookie no longer works either); `everywhere` (JSON `{"everywhere": true}` or the form field)
 * also ends every other session of the account.
 */
export async function postLogout(request: Request, deps: SessionDeps): Promise<Response> {
  requireSameOrigin(request, deps);
  const session = await currentSession(request, deps);
  if (session) {
    const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
    await deps.auth.revocations.revoke(session.sid, session.exp, nowSeconds);
    const body = request.headers.get('content-length') === '0' || !request.body ? undefined : await validBody(request, SignOutSchema, 16 * 1024).catch(() => undefined);
    if (body?.everywhere === true) await deps.auth.accounts.signOutEverywhere(session.email);
  }
  const secure = isSecureRequest(request, deps);
  const cookies = [sessionCookie('', 0, secure), signedInHint(0, secure)];
  if (isFormBody(request)) return redirect(loginPage('signed-out=1', undefined), ...cookies);
  const response = await answerResponse(request, jsonAnswer(200, { success: true }, { 'Cache-Control': 'no-store' }));
  for (const cookie of cookies) response.headers.append('Set-Cookie', cookie);
  return response;
}

export async function getSession(request: Request, deps: SessionDeps): Promise<Response> {
  const session = await currentSession(request, deps);
  if (!session) throw new ApiError(401, 'unauthorized', 'No one is signed in.', { hint: 'Sign in on /login.' });
  return answerResponse(
    request,
    jsonAnswer(200, { success: true, user: { email: session.email, role: session.role }, expiresAt: new Date(session.exp * 1000).toISOString() }, { 'Cache-Control': 'no-store' }),
  );
}

/** `Set-Cookie` values for a fresh session of an account (its generation, a new session id): the session cookie first, then the signed-in hint. */
export function newSessionCookies(request: Request, deps: Pick<Deps, 'state' | 'auth' | 'config'>, account: Account, nowMs: number): string[] {
  const exp = Math.floor(nowMs / 1000) + deps.config.sessionTtlSeconds;
  const session = { email: account.email, role: account.role, exp, gen: account.generation ?? '', sid: randomBytes(16).toString('base64url') };
  const secure = isSecureRequest(request, deps);
  return [sessionCookie(signSession(session, deps.auth.secret), deps.config.sessionTtlSeconds, secure), signedInHint(deps.config.sessionTtlSeconds, secure)];
}

/** Where a browser goes after signing in without a page to come back to: the admin pages, or the member dashboard. */
export const landingPage = (account: Pick<Account, 'role'>): string => (account.role === 'admin' ? '/admin/' : paths.memberHome);

/** A 303 for a browser navigation, optionally setting cookies. */
export function redirect(location: string, ...cookies: string[]): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}

// --- internal ---

/** A valid scrypt hash of a random password, for constant-time refusals. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
