/**
 * Sign-in by a mailed link (issue 18, item 2), for members. POST /auth/magic-link
 * `{ email, next? }` mails a link good for 15 minutes and one use; the link opens
 * /sign-in-link, whose one button (a POST: a mail scanner that opens every link signs nobody
 * in) sends its token to POST /auth/magic-link/sign-in, which starts the session and goes on to
 * `next`. The request answers the same, in the same time, whether or not the address has an
 * account; the mail tells its owner the rest (no account: a link to sign up; an editor's
 * account: nothing is sent, as for a password reset). It counts against the same mail limits as
 * sign-up and reset requests (account-forms.ts).
 */
import { randomBytes } from 'node:crypto';
import type { RequestContext } from '../http/app.ts';
import { ApiError } from '../http/errors.ts';
import { isFormBody } from '../http/request-body.ts';
import { localPath } from '../../src/local-path.ts';
import { SignInLinkRequestSchema, SignInLinkSchema } from '../../src/schemas/requests.ts';
import { formOrJson, mailOnce, overMailLimit, pageLink, said, unavailableHere, type MemberDeps } from './account-forms.ts';
import { accountToken, ACCOUNT_PAGES, noAccountMail, readAccountToken, signInLinkMail } from './account-mail.ts';
import { landingPage, loginAgain, loginPage, newSessionCookies, redirect, signedInAnswer } from './sign-in.ts';
import { normalizeEmail } from './users.ts';

/** POST /auth/magic-link `{ email, next? }`: a sign-in link to a member's address (202; a form post: 303 to /login, which says to check the mail). */
export async function postSignInLinkRequest(request: Request, deps: MemberDeps, context: RequestContext): Promise<Response> {
  const form = isFormBody(request);
  // The sign-in page words these as the link form's own (`link_email`, `link_throttled`), keeping `next`.
  const body = await formOrJson(request, deps, SignInLinkRequestSchema, (error, fields) => loginAgain(`link_${error}`, fields.next));
  if (body instanceof Response) return body;
  const next = localPath(body.next);
  // Before anything is looked up: where accounts are only read (using a link writes), the answer is the same for every address.
  const unavailable = unavailableHere(deps, form, (error) => loginAgain(`link_${error}`, next), 'Signing in with a link', 'no link was sent');
  if (unavailable) return unavailable;
  const limited = await overMailLimit(deps, context, form, (error) => loginAgain(`link_${error}`, next));
  if (limited) return limited;
  const email = normalizeEmail(body.email);
  const now = deps.clock().getTime();
  const site = deps.state().catalog.site;
  const account = await deps.auth.accounts.find(email, now);
  const token = accountToken('signin', account ?? { email }, deps.auth.secret, now, { nonce: randomBytes(16).toString('base64url'), next });
  // Each path takes the same steps (a token made, a recipient place taken): only the mail differs, and an editor gets none.
  if (!account) await mailOnce(deps, email, noAccountMail(site), 'no-account');
  else await mailOnce(deps, account.email, account.role === 'member' ? signInLinkMail(pageLink(deps, ACCOUNT_PAGES.signInLink, token), site) : undefined, 'signin');
  if (form) return redirect(loginPage('link-sent=1', next));
  return said(request, 202, 'Check your e-mail: if the address has an account, the link in it signs you in once, within 15 minutes.');
}

/**
 * POST /auth/magic-link/sign-in `{ token }`: the button of the page the sign-in mail links to.
 * Sets the session cookie (the link is spent, the address counts as confirmed); a form post goes
 * on to the link's `next`, else to the member dashboard.
 */
export async function postSignInWithLink(request: Request, deps: MemberDeps): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, SignInLinkSchema, () => loginAgain('signin_link_expired', undefined));
  if (body instanceof Response) return body;
  const now = deps.clock().getTime();
  const link = readAccountToken(body.token, 'signin', deps.auth.secret, now);
  const account = link?.nonce ? await deps.auth.accounts.useSignInLink({ email: link.email, gen: link.gen, nonce: link.nonce, expiresAtMs: link.exp * 1000 }, now) : undefined;
  if (!account) {
    if (form) return redirect(loginAgain('signin_link_expired', link?.next));
    throw new ApiError(400, 'validation_error', 'token: the sign-in link has expired, was used already, or the password was changed since it was sent.', {
      hint: 'Ask for a new link on /login.',
    });
  }
  const cookies = newSessionCookies(request, deps, account, now);
  if (form) return redirect(localPath(link?.next) ?? landingPage(account), ...cookies);
  return signedInAnswer(request, account, cookies);
}
