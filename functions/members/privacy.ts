/**
 * A member's own data (issue 18, item 7): GET /api/v1/me/export, everything stored about the
 * account as a JSON download, and POST /api/v1/me/delete, the account and everything about it
 * removed once the member has shown it is them (the current password; an account without one
 * types its e-mail address). For people in a browser only: the same-origin session cookie, as
 * /me/saved. The form of /account/privacy/ posts here and works without JavaScript (303s).
 * What is stored, section by section: members/member-data.ts.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import type { RequestContext } from '../http/app.ts';
import { isFormBody, readBody } from '../http/request-body.ts';
import { checkBody } from '../http/valid-body.ts';
import { currentSession, isSecureRequest, requireMember, requireSameOrigin } from '../auth/guard.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { sessionCookie, signedInHint } from '../auth/session.ts';
import { redirect } from '../auth/sign-in.ts';
import { normalizeEmail, type Account } from '../auth/users.ts';
import { utcDay } from '../utc-day.ts';
import { forgetSubmitter, withReviewStates } from './member-submissions.ts';
import { isLiveSubscription } from '../billing/plan-state.ts';
import { AccountDeletionSchema, MEMBER_EXPORT_FORMAT, type AccountDeletion, type MemberExport, type PrivacySummary } from '../../src/schemas/member-data.ts';

export type PrivacyDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config' | 'log' | 'submissions' | 'billing'>;

/** The member's page for their data (src/pages/account/privacy.astro). */
export const PRIVACY_PAGE = '/account/privacy/';
/** Where a deleted account's browser lands (src/pages/account/deleted.astro). */
export const DELETED_PAGE = '/account/deleted/';
/** Why a form post came back to the privacy page (`?error=`; the page words each). */
export type DeletionRefusal = 'invalid' | 'missing' | 'password' | 'email' | 'throttled' | 'only-admin' | 'billing';

/** GET /me/export: the member's data as a dated JSON file; never cached. */
export async function getExport(request: Request, deps: PrivacyDeps): Promise<Response> {
  const session = await requireMember(request, deps);
  // A top-level link from another site carries the Lax cookie: it must not start a download.
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    throw new ApiError(403, 'forbidden', 'A copy of your data is downloaded from this site only.', { hint: `Open ${PRIVACY_PAGE} and press "Download my data".` });
  }
  const data = await memberExport(session.email, deps);
  const name = `${fileStem(deps.state().catalog.site.name)}-my-data-${utcDay(deps.clock())}.json`;
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store' },
  });
}

/**
 * Everything stored about an account, in the export's shape (src/schemas/member-data.ts).
 * @example (await memberExport('mel@example.com', deps)).savedItems.length
 */
export async function memberExport(email: string, deps: PrivacyDeps): Promise<MemberExport> {
  const rows = await deps.auth.accounts.memberData(({ whole }) => whole.export(email, deps.config.dataDir));
  // The submissions with their review state, which their own store keeps.
  const submissions = await withReviewStates(rows.submissions, deps);
  return { format: MEMBER_EXPORT_FORMAT, exportedAt: deps.clock().toISOString(), site: deps.state().catalog.site.baseUrl, ...rows, submissions };
}

/** What /account/privacy/ shows of the request's session, or undefined without one. */
export async function signedInPrivacy(request: Request, deps: PrivacyDeps): Promise<PrivacySummary | undefined> {
  const session = await currentSession(request, deps);
  if (!session) return undefined;
  const [rows, onlyAdmin] = await deps.auth.accounts.memberData(async ({ whole }) => [await whole.export(session.email, deps.config.dataDir), await whole.onlyAdmin(session.email)] as const);
  const counts = Object.fromEntries(Object.entries(rows).map(([key, value]) => [key, Array.isArray(value) ? value.length : value === null ? 0 : 1])) as PrivacySummary['counts'];
  return { account: rows.account, counts, onlyAdmin };
}

/**
 * POST /me/delete `{ password }` (or `{ email }` for an account without a password): the
 * account and everything about it removed in one transaction; every session ends and the
 * cookies are cleared. A wrong password counts as a failed sign-in (the sign-in throttle), so
 * this form cannot be used to guess one. The site's last admin cannot delete their account.
 */
export async function postDelete(request: Request, deps: PrivacyDeps, context: RequestContext): Promise<Response> {
  const form = isFormBody(request);
  // JSON callers hear 401 before anything about their body; a form without a session goes to sign in and back.
  const session = form ? await currentSession(request, deps) : await requireMember(request, deps);
  requireSameOrigin(request, deps);
  // Read without the schema's trimming: a password is taken exactly as typed.
  const checked = checkBody(AccountDeletionSchema, await readBody(request, 16 * 1024));
  if (!session) return redirect(`/login?next=${encodeURIComponent(PRIVACY_PAGE)}`);
  if (!checked.ok) return refused(form, 'invalid', checked.error);
  const account = await deps.auth.accounts.find(session.email);
  if (!account) return sessionOver(form);
  const unconfirmed = await confirmIdentity(account, checked.value, deps, context);
  if (unconfirmed) return refused(form, unconfirmed.reason, unconfirmed.error);

  const unpaid = await cancelSubscription(account.email, deps);
  if (unpaid) return refused(form, 'billing', unpaid);
  const submitted = await deps.auth.accounts.memberData(({ submissions }) => submissions.list(account.email));
  const outcome = await deps.auth.accounts.eraseMember(account.email, session.gen, deps.config.dataDir);
  if (!outcome.erased && outcome.reason === 'only-admin') {
    // 400 `conflict`, as the API's other conflicts are (SPEC "Errors").
    const error = new ApiError(400, 'conflict', 'This is the only admin account: without it the site would have no editor. Nothing was deleted.', {
      hint: 'Make another account an admin first (npm run admin -- add <e-mail> --role admin), then delete this one.',
    });
    return refused(form, 'only-admin', error);
  }
  if (!outcome.erased) return sessionOver(form);
  await forgetSubmitter(
    submitted.map((s) => s.id),
    deps,
  );
  if (outcome.filesKept.length > 0) deps.log.warn('member_files_kept', { sections: outcome.filesKept, hint: 'the account is deleted; remove its mail from DATA_DIR/outbox by hand' });
  // No address in the log: the account is gone, and so is what named it.
  deps.log.info('account_deleted', { role: account.role });
  const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
  // The account row is gone, which ends every session; revoked too, so a copy of this cookie dies at once on every instance sharing Redis.
  await deps.auth.revocations.revoke(session.sid, session.exp, nowSeconds);
  const secure = isSecureRequest(request, deps);
  const cookies = [sessionCookie('', 0, secure), signedInHint(0, secure)];
  if (form) return redirect(DELETED_PAGE, ...cookies);
  const response = await answerResponse(request, jsonAnswer(200, { success: true, message: 'Your account and everything stored about it are deleted.' }, { 'Cache-Control': 'no-store' }));
  for (const cookie of cookies) response.headers.append('Set-Cookie', cookie);
  return response;
}

// --- internal ---

/**
 * Whether the request shows it is the account's owner: its current password (counted by the
 * sign-in throttle like a sign-in), or for an account without one, its address typed again.
 * @returns undefined when it does, else why not
 */
async function confirmIdentity(account: Account, body: AccountDeletion, deps: PrivacyDeps, context: RequestContext): Promise<{ reason: DeletionRefusal; error: ApiError } | undefined> {
  const nothing = 'Nothing was deleted.';
  if (!account.passwordHash) {
    const typed = normalizeEmail(body.email ?? '');
    const hint = "Type the account's e-mail address to confirm: it has no password (it signs in through the identity provider).";
    if (!typed) return { reason: 'missing', error: new ApiError(400, 'validation_error', `\`email\` is required: this account has no password. ${nothing}`, { hint }) };
    if (typed !== account.email) return { reason: 'email', error: new ApiError(403, 'forbidden', `\`email\` is not this account's address. ${nothing}`, { hint }) };
    return undefined;
  }
  const hint = 'Type the password you sign in with. Forgot it? Choose a new one on /forgot-password.';
  if (!body.password) return { reason: 'missing', error: new ApiError(400, 'validation_error', `\`password\` is required: your current password confirms the deletion. ${nothing}`, { hint }) };
  // Reserved before the password is checked, as a sign-in is: parallel guesses cannot all pass.
  const throttle = await deps.auth.loginThrottle.begin(context.address, account.email, deps.clock().getTime());
  if (!('attempt' in throttle)) {
    const error = new ApiError(429, 'rate_limited', `Too many failed attempts with this account's password. ${nothing}`, {
      hint: `Try again in ${throttle.retryAfterSeconds} seconds.`,
      headers: { 'Retry-After': String(throttle.retryAfterSeconds) },
    });
    return { reason: 'throttled', error };
  }
  let valid: boolean;
  try {
    valid = await verifyPassword(body.password, account.passwordHash);
  } catch (error) {
    await deps.auth.loginThrottle.abandon(throttle.attempt);
    throw error;
  }
  if (!valid) return { reason: 'password', error: new ApiError(403, 'forbidden', `The password is not right. ${nothing}`, { hint }) };
  await deps.auth.loginThrottle.succeeded(throttle.attempt);
  return undefined;
}

/** A refusal: for a form post, the privacy page again saying why (at its delete form); else the JSON error. */
function refused(form: boolean, reason: DeletionRefusal, error: ApiError): Response {
  if (form) return redirect(`${PRIVACY_PAGE}?error=${reason}#delete`);
  throw error;
}

/** The session ended meanwhile (the account was deleted, or its password reset, elsewhere). */
/**
 * A paid plan ends with its account: a subscription that could still charge is cancelled at
 * Stripe first. When Stripe cannot be reached, nothing is deleted (the member could not reach
 * the billing portal any more to stop the payments).
 * @returns undefined once nothing is left to charge, else the error to answer (503)
 */
async function cancelSubscription(email: string, deps: PrivacyDeps): Promise<ApiError | undefined> {
  if (!deps.billing) return undefined;
  const [plan, onlyAdmin] = await deps.auth.accounts.memberData(async ({ plans, whole }) => [await plans.find(email), await whole.onlyAdmin(email)] as const);
  // The last admin's deletion is refused anyway (member-data-store.ts): their plan stays as it is.
  if (onlyAdmin) return undefined;
  if (!isLiveSubscription(plan)) return undefined;
  try {
    await deps.billing.cancel(plan?.subscriptionId as string);
    deps.log.info('subscription_cancelled', { reason: 'account_deleted' });
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return new ApiError(503, 'service_unavailable', 'Your subscription could not be cancelled just now, so nothing was deleted.', {
      hint: 'Try again in a few minutes, or cancel the plan in the billing portal first.',
      headers: { 'Retry-After': '60' },
    });
  }
}

function sessionOver(form: boolean): Response {
  if (form) return redirect(`/login?next=${encodeURIComponent(PRIVACY_PAGE)}`);
  throw new ApiError(401, 'unauthorized', 'This session has ended; nothing was deleted.', { hint: 'Sign in on /login and try again.' });
}

/** A file name's start from the site's name: lowercase letters, digits and single hyphens. */
function fileStem(siteName: string): string {
  return (
    siteName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'account'
  );
}
