/**
 * Who is calling: the verified admin session, the CSRF rule for cookie-authenticated writes
 * (DESIGN: `Origin` or `Sec-Fetch-Site` must show the site itself), and the 401/403 split.
 */
import type { Deps } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { readCookie, sessionCookieName, verifySession, type Session } from './session.ts';

/** What checking a session reads: the time, the accounts and keys, and the site's origin (from the catalog). */
export type SessionDeps = Pick<Deps, 'state' | 'clock' | 'auth'>;
/** The site's configured origin is its catalog's base URL. */
export type OriginDeps = Pick<Deps, 'state'>;

/**
 * The session carried by the request's cookie, if its signature holds, it has not expired, it
 * was not signed out, its account still exists and the account's session generation is still
 * the one it began with (sign-out everywhere, a password or role change, removal and re-adding
 * all end it).
 */
export async function currentSession(request: Request, deps: SessionDeps): Promise<Session | undefined> {
  // Over HTTPS only the `__Host-` cookie counts: a plain-named one may have been planted.
  const value = readCookie(request.headers.get('cookie'), sessionCookieName(isSecureRequest(request, deps)));
  if (!value) return undefined;
  const now = deps.clock();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const session = verifySession(value, deps.auth.secret, nowSeconds);
  if (!session) return undefined;
  const account = await deps.auth.accounts.find(session.email, now.getTime());
  if (!account || (account.generation ?? '') !== session.gen) return undefined;
  if (await deps.auth.revocations.isRevoked(session.sid, nowSeconds)) return undefined;
  return { ...session, role: account.role };
}

/**
 * The admin session for a request, or the right error: 401 without a session, 403 for a
 * cross-site write (the cookie alone proves nothing then), 403 for a non-admin.
 */
export async function requireAdmin(request: Request, deps: SessionDeps): Promise<Session> {
  const session = await signedIn(request, deps, 'a signed-in admin session', 'Sign in on /login; the session cookie then authorizes admin requests.');
  if (session.role !== 'admin') throw new ApiError(403, 'forbidden', 'This operation is for admins only.', { hint: 'Ask an admin to grant you the admin role.' });
  return session;
}

/**
 * The session of a signed-in member (or admin: the member area is theirs too), or the right
 * error: 401 without a session, 403 for a cross-site write.
 */
export function requireMember(request: Request, deps: SessionDeps): Promise<Session> {
  return signedIn(
    request,
    deps,
    'a signed-in session',
    'Sign in on /login (new here: /signup); the session cookie then authorizes it. Only a browser on this site can: there is no credential for agents.',
  );
}

/**
 * A member form's session: a form post without one is answered by the caller with a redirect to
 * sign in (and back); a JSON caller hears 401 before anything about its body.
 */
export function memberOrForm(request: Request, deps: SessionDeps, form: boolean): Promise<Session | undefined> {
  return form ? currentSession(request, deps) : requireMember(request, deps);
}

/**
 * Refuse a state-changing request that a browser made from another site. `Origin` must be the
 * whole origin (scheme, host and port) the request reached, or the site's configured base URL;
 * without `Origin`, `Sec-Fetch-Site` must say `same-origin`.
 */
export function requireSameOrigin(request: Request, deps: OriginDeps): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
  const origin = request.headers.get('origin');
  const fetchSite = request.headers.get('sec-fetch-site');
  let sameOrigin = false;
  if (origin && origin !== 'null') sameOrigin = siteOrigins(request, deps).has(origin.toLowerCase());
  else if (fetchSite) sameOrigin = fetchSite === 'same-origin';
  if (!sameOrigin) {
    throw new ApiError(403, 'forbidden', 'Cross-site requests cannot change data.', {
      hint: 'Send the request from the site itself (its Origin header must name this site).',
    });
  }
}

/**
 * Whether the browser reached the site over HTTPS: the request's own scheme (the adapter sets
 * https only when a trusted proxy says so) or an https base URL in the site settings. Never the
 * Host header, which the client chooses.
 */
export function isSecureRequest(request: Request, deps: OriginDeps): boolean {
  return new URL(request.url).protocol === 'https:' || configuredOrigin(deps)?.startsWith('https:') === true;
}

// --- internal ---

/** The session, or 401 saying what is `needed`; then the same-origin rule for writes (a cookie alone proves nothing cross-site). */
async function signedIn(request: Request, deps: SessionDeps, needed: string, hint: string): Promise<Session> {
  const session = await currentSession(request, deps);
  if (!session) throw new ApiError(401, 'unauthorized', `This operation needs ${needed}.`, { hint });
  requireSameOrigin(request, deps);
  return session;
}

/** The origins a same-site request may name. */
function siteOrigins(request: Request, deps: OriginDeps): Set<string> {
  const origins = new Set([new URL(request.url).origin]);
  const configured = configuredOrigin(deps);
  if (configured) origins.add(configured);
  return origins;
}

function configuredOrigin(deps: OriginDeps): string | undefined {
  try {
    return new URL(deps.state().catalog.site.baseUrl).origin;
  } catch {
    return undefined;
  }
}
