/**
 * GET /api/v1/auth/oidc (send the browser to the OpenID Connect provider) and GET
 * /api/v1/auth/oidc/callback (come back with a code, leave with a session). Browser
 * navigations, so outcomes are redirects: to `next` (kept in the flow cookie) or the account's
 * landing page, or to the login page with a reason it can show. The provider vouches for the
 * address (a verified e-mail, or no sign-in at all): an address without an account here signs
 * up as a member (no password, confirmed). 404 when no provider is configured.
 */
import type { Deps } from '../deps.ts';
import { FLOW_COOKIE, FLOW_SECONDS, OidcFailure, type OidcSignIn } from './oidc.ts';
import { cookieHeader, readCookie } from './session.ts';
import { localPath } from '../../src/local-path.ts';
import { ApiError } from '../http/errors.ts';
import { isSecureRequest, type OriginDeps } from './guard.ts';
import { landingPage, newSessionCookies, redirect } from './sign-in.ts';

export const OIDC_CALLBACK_PATH = '/api/v1/auth/oidc/callback';

export async function getOidcStart(request: Request, deps: Pick<Deps, 'state' | 'clock' | 'auth' | 'log'>): Promise<Response> {
  const oidc = configured(deps);
  try {
    const next = localPath(new URL(request.url).searchParams.get('next'));
    const { location, flowCookie } = await oidc.begin(new URL(OIDC_CALLBACK_PATH, request.url).href, nowSeconds(deps), next);
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
      // Sign-up: the provider vouched for the address. Two callbacks at once make one account.
      const added = await deps.auth.accounts.addVerifiedMember(identity.email);
      account = await deps.auth.accounts.find(identity.email, now);
      if (!account) throw new Error('the account just added cannot be read');
      if (added) deps.log.info('sso sign-up', { email: account.email, role: account.role });
    }
    deps.log.info('sso sign-in', { email: account.email, role: account.role });
    return redirect(localPath(identity.next) ?? landingPage(account), clearFlow, ...newSessionCookies(request, deps, account, now));
  } catch (error) {
    return failed(error, deps, clearFlow);
  }
}

// --- internal ---

function configured(deps: Pick<Deps, 'auth'>): OidcSignIn {
  if (deps.auth.oidc) return deps.auth.oidc;
  throw new ApiError(404, 'not_found', 'OpenID Connect sign-in is not configured on this site.', {
    hint: 'Sign in on /login with an e-mail and password, or a link mailed to you.',
  });
}

function failed(error: unknown, deps: Pick<Deps, 'log'>, ...cookies: string[]): Response {
  // The accounts database is down, or only read here (a serverless function without DATABASE_URL): said as such, not as a failed sign-in.
  const reason = error instanceof OidcFailure ? error.reason : error instanceof ApiError && error.status === 503 ? 'accounts_unavailable' : 'sso_failed';
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
