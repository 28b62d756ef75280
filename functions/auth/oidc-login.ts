/**
 * GET /api/v1/auth/oidc (send the browser to the OpenID Connect provider) and GET
 * /api/v1/auth/oidc/callback (come back with a code, leave with a session). Browser
 * navigations, so outcomes are redirects: to the admin pages, or to the login page with a
 * reason it can show. 404 when no provider is configured.
 */
import { createHash } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { FLOW_COOKIE, FLOW_SECONDS, OidcFailure, type OidcSignIn } from './oidc.ts';
import { cookieHeader, readCookie } from './session.ts';
import { normalizeEmail } from './users.ts';
import { ApiError } from '../http/errors.ts';
import { isSecureRequest, type OriginDeps } from './guard.ts';
import { landingPage, newSessionCookies, redirect } from './sign-in.ts';

export const OIDC_CALLBACK_PATH = '/api/v1/auth/oidc/callback';

export async function getOidcStart(request: Request, deps: Pick<Deps, 'state' | 'clock' | 'auth' | 'log'>): Promise<Response> {
  const oidc = configured(deps);
  try {
    const { location, flowCookie } = await oidc.begin(new URL(OIDC_CALLBACK_PATH, request.url).href, nowSeconds(deps));
    return redirect(location, flowCookieHeader(request, deps, flowCookie, FLOW_SECONDS));
  } catch (error) {
    return failed(error, deps);
  }
}

export async function getOidcCallback(request: Request, deps: Pick<Deps, 'state' | 'clock' | 'auth' | 'log' | 'config'>): Promise<Response> {
  const oidc = configured(deps);
  const url = new URL(request.url);
  const clearFlow = flowCookieHeader(request, deps, '', 0);
  // The person cancelled, or the provider refused: no token exchange to try.
  if (url.searchParams.has('error')) return redirect('/login?error=sso_denied', clearFlow);
  try {
    const identity = await oidc.finish(url, readCookie(request.headers.get('cookie'), flowCookieName(isSecureRequest(request, deps))), nowSeconds(deps));
    const now = deps.clock().getTime();
    let account = await deps.auth.accounts.find(identity.email, now);
    // The provider vouched for the address: an unconfirmed sign-up with it (someone else's password, maybe) is claimed, its password dropped.
    if (account && !account.emailVerifiedAt && (await deps.auth.accounts.claimUnconfirmed(account.email))) account = await deps.auth.accounts.find(identity.email, now);
    if (!account) {
      // A stranger's address is not ours to keep: a hash still matches reports of the same person.
      deps.log.info('sso sign-in refused: no account', { emailHash: emailHash(identity.email) });
      return redirect('/login?error=sso_no_account', clearFlow);
    }
    deps.log.info('sso sign-in', { email: account.email, role: account.role });
    return redirect(landingPage(account), clearFlow, ...newSessionCookies(request, deps, account, now));
  } catch (error) {
    return failed(error, deps, clearFlow);
  }
}

// --- internal ---

function configured(deps: Pick<Deps, 'auth'>): OidcSignIn {
  if (deps.auth.oidc) return deps.auth.oidc;
  throw new ApiError(404, 'not_found', 'OpenID Connect sign-in is not configured on this site.', {
    hint: 'Sign in with an e-mail and password on /login.',
  });
}

function failed(error: unknown, deps: Pick<Deps, 'log'>, ...cookies: string[]): Response {
  const reason = error instanceof OidcFailure ? error.reason : 'sso_failed';
  deps.log.warn('sso sign-in failed', { reason, ...(error instanceof OidcFailure ? {} : { error: String(error) }) });
  return redirect(`/login?error=${reason}`, ...cookies);
}

/**
 * The flow cookie goes back only to the auth routes. Over HTTPS it carries the `__Secure-`
 * prefix (`__Host-` would need Path=/), so a plain-http page cannot plant one.
 */
function flowCookieHeader(request: Request, deps: OriginDeps, value: string, maxAgeSeconds: number): string {
  const secure = isSecureRequest(request, deps);
  return cookieHeader(flowCookieName(secure), value, { maxAgeSeconds, secure, path: '/api/' });
}

const flowCookieName = (secure: boolean): string => (secure ? `__Secure-${FLOW_COOKIE}` : FLOW_COOKIE);

const nowSeconds = (deps: Pick<Deps, 'clock'>): number => Math.floor(deps.clock().getTime() / 1000);

/** First 12 hex digits of the SHA-256 of the normalised e-mail: enough to correlate, not to read. */
const emailHash = (email: string): string => createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 12);
