/**
 * Who is calling: the verified admin session, the CSRF rule for cookie-authenticated writes
 * (DESIGN: `Origin` or `Sec-Fetch-Site` must show the site itself), and the 401/403 split.
 */
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { readCookie, SESSION_COOKIE, verifySession, type Session } from './session.ts';

/** The session carried by the request's cookie, if valid and its account still exists. */
export async function currentSession(request: Request, deps: Deps): Promise<Session | undefined> {
  const value = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
  if (!value) return undefined;
  const now = deps.clock();
  const session = verifySession(value, deps.auth.secret, Math.floor(now.getTime() / 1000));
  if (!session) return undefined;
  const account = await deps.auth.accounts.find(session.email, now.getTime());
  return account ? { ...session, role: account.role } : undefined;
}

/**
 * The admin session for a request, or the right error: 401 without a session, 403 for a
 * cross-site write (the cookie alone proves nothing then), 403 for a non-admin.
 */
export async function requireAdmin(request: Request, deps: Deps): Promise<Session> {
  const session = await currentSession(request, deps);
  if (!session) {
    throw new ApiError(401, 'unauthorized', 'This operation needs a signed-in admin session.', {
      hint: 'Sign in on /login; the session cookie then authorizes admin requests.',
    });
  }
  requireSameOrigin(request);
  if (session.role !== 'admin') throw new ApiError(403, 'forbidden', 'This operation is for admins only.', { hint: 'Ask an admin to grant you the admin role.' });
  return session;
}

/** Refuse a state-changing request that a browser made from another site. */
export function requireSameOrigin(request: Request): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const host = request.headers.get('host') ?? new URL(request.url).host;
  const origin = request.headers.get('origin');
  const fetchSite = request.headers.get('sec-fetch-site');
  let sameOrigin = false;
  if (origin && origin !== 'null') {
    try {
      sameOrigin = new URL(origin).host === host;
    } catch {
      sameOrigin = false;
    }
  } else if (fetchSite) {
    sameOrigin = fetchSite === 'same-origin';
  }
  if (!sameOrigin) {
    throw new ApiError(403, 'forbidden', 'Cross-site requests cannot change data.', {
      hint: 'Send the request from the site itself (its Origin header must name this site).',
    });
  }
}
