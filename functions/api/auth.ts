/**
 * Sign-in for the embedded local accounts: POST /api/v1/auth/login and /logout, GET
 * /api/v1/auth/session. Plain HTML form posts get redirects (the login page works without
 * JavaScript); JSON callers get JSON. Failed attempts are throttled per address and e-mail.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError } from '../http/errors.ts';
import { isLoopbackHost } from '../http/loopback.ts';
import { readBody } from '../http/request-body.ts';
import { currentSession, requireSameOrigin } from '../auth/guard.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { sessionCookie, signSession } from '../auth/session.ts';
import { normalizeEmail, type Account } from '../auth/users.ts';

export async function postLogin(request: Request, deps: Deps): Promise<Response> {
  const form = isForm(request);
  requireSameOrigin(request);
  const body = await readBody(request, 16 * 1024);
  const email = typeof (body as { email?: unknown })?.email === 'string' ? normalizeEmail((body as { email: string }).email) : '';
  const password = typeof (body as { password?: unknown })?.password === 'string' ? (body as { password: string }).password : '';
  if (!email || !password) {
    if (form) return redirect('/login?error=missing');
    throw new ApiError(400, 'validation_error', 'email and password are required.', { hint: 'Send {"email": "...", "password": "..."}.' });
  }

  const now = deps.clock().getTime();
  const keys = [`address:${clientAddress(request)}`, `email:${email}`];
  const blocked = (await Promise.all(keys.map((key) => deps.auth.loginLimit.check(key, now)))).find((b) => !b.allowed);
  if (blocked) {
    if (form) return redirect('/login?error=throttled');
    throw new ApiError(429, 'rate_limited', 'Too many failed sign-in attempts.', {
      hint: `Try again in ${blocked.retryAfterSeconds} seconds.`,
      headers: { 'Retry-After': String(blocked.retryAfterSeconds) },
    });
  }

  const account = await deps.auth.accounts.find(email, now);
  // Verify against a dummy hash when the account is unknown, so timing does not reveal it.
  const valid = await verifyPassword(password, account?.passwordHash || DUMMY_HASH);
  if (!account?.passwordHash || !valid) {
    for (const key of keys) await deps.auth.loginLimit.record(key, now);
    if (form) return redirect('/login?error=invalid');
    throw new ApiError(401, 'unauthorized', 'The e-mail or password is not right.', { hint: 'Check both and try again.' });
  }

  const cookie = newSessionCookie(request, deps, account, now);
  if (form) return redirect(landingPage(account), cookie);
  const response = await answerResponse(request, jsonAnswer(200, { success: true, user: { email: account.email, role: account.role } }, { 'Cache-Control': 'no-store' }));
  response.headers.append('Set-Cookie', cookie);
  return response;
}

export async function postLogout(request: Request, _deps: Deps): Promise<Response> {
  requireSameOrigin(request);
  const cookie = sessionCookie('', 0, secureCookie(request));
  if (isForm(request)) return redirect('/login?signed-out=1', cookie);
  const response = await answerResponse(request, jsonAnswer(200, { success: true }, { 'Cache-Control': 'no-store' }));
  response.headers.append('Set-Cookie', cookie);
  return response;
}

export async function getSession(request: Request, deps: Deps): Promise<Response> {
  const session = await currentSession(request, deps);
  if (!session) throw new ApiError(401, 'unauthorized', 'No one is signed in.', { hint: 'Sign in on /login.' });
  return answerResponse(request, jsonAnswer(200, { success: true, user: { email: session.email, role: session.role }, expiresAt: new Date(session.exp * 1000).toISOString() }, { 'Cache-Control': 'no-store' }));
}

/** `Set-Cookie` for a fresh session of an account. */
export function newSessionCookie(request: Request, deps: Deps, account: Account, nowMs: number): string {
  const exp = Math.floor(nowMs / 1000) + deps.config.sessionTtlSeconds;
  return sessionCookie(signSession({ email: account.email, role: account.role, exp }, deps.auth.secret), deps.config.sessionTtlSeconds, secureCookie(request));
}

/** Where a browser goes after signing in. */
export const landingPage = (account: Account): string => (account.role === 'admin' ? '/admin/' : '/');

/** DESIGN: Secure cookies everywhere but on localhost (where browsers allow plain http). */
export function secureCookie(request: Request): boolean {
  return !isLoopbackHost((request.headers.get('host') ?? new URL(request.url).host).replace(/:\d+$/, ''));
}

/** A 303 for a browser navigation, optionally setting cookies. */
export function redirect(location: string, ...cookies: string[]): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}

// --- internal ---

/** A valid scrypt hash of a random password, for constant-time refusals. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

function isForm(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}
