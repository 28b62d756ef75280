/**
 * People's own accounts (issue 18, item 2): sign-up with a confirmed e-mail address, and a
 * password reset through an e-mailed link. Each takes an HTML form post (303 to the page that
 * says what happened: the pages work without JavaScript) or JSON. Answers never say whether an
 * address has an account: sign-up and a reset request answer the same either way, in the same
 * time (mail goes in the background), and the mail says the rest to the owner of the address.
 * Same-origin only; requests that send mail are limited per client (`deps.auth.mailLimit`) and
 * mails per recipient (`deps.auth.recipientLimit`), so the forms cannot flood a mailbox.
 */
import type { RequestContext } from '../http/app.ts';
import { ApiError } from '../http/errors.ts';
import { isFormBody } from '../http/request-body.ts';
import { PasswordResetRequestSchema, PasswordResetSchema, SignUpSchema, TokenSchema } from '../../src/schemas/requests.ts';
import { backTo, formOrJson, mailOnce, overMailLimit, pageLink, said, unavailableHere, type MemberDeps } from './account-forms.ts';
import { accountToken, ACCOUNT_PAGES, alreadyRegisteredMail, readAccountToken, resetMail, verifyMail } from './account-mail.ts';
import { hashPassword } from './passwords.ts';
import { redirect } from './sign-in.ts';
import { normalizeEmail } from './users.ts';

/** POST /auth/signup `{ email, password }`: a member account, confirmed by the link mailed to the address. */
export async function postSignUp(request: Request, deps: MemberDeps, context: RequestContext): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, SignUpSchema, backTo(ACCOUNT_PAGES.signup));
  if (body instanceof Response) return body;
  const unavailable = unavailableHere(deps, form, backTo(ACCOUNT_PAGES.signup), 'Signing up', 'nothing was stored');
  if (unavailable) return unavailable;
  const limited = await overMailLimit(deps, context, form, backTo(ACCOUNT_PAGES.signup));
  if (limited) return limited;
  const email = normalizeEmail(body.email);
  const site = deps.state().catalog.site;
  // Hashed whatever happens next, so both outcomes take the same time.
  const account = await deps.auth.accounts.addMember(email, await hashPassword(body.password));
  // A new or still unconfirmed account: the link (for its new generation). A confirmed one: a note to its owner, no link.
  const mail = account ? verifyMail(pageLink(deps, ACCOUNT_PAGES.confirm, accountToken('verify', account, deps.auth.secret, deps.clock().getTime())), site) : alreadyRegisteredMail(site);
  await mailOnce(deps, email, mail, account ? 'verify' : 'already-registered');
  if (form) return redirect(`${ACCOUNT_PAGES.signup}?sent=1`);
  return said(request, 202, 'Check your e-mail: the link in it confirms the address and finishes the sign-up.');
}

/** POST /auth/verify `{ token }`: the button of the page the confirmation mail links to; 303 to the sign-in page, which says whether it worked. */
export async function postVerify(request: Request, deps: MemberDeps): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, TokenSchema, backTo(ACCOUNT_PAGES.login));
  if (body instanceof Response) return form ? redirect(`${ACCOUNT_PAGES.login}?error=link_expired`) : body;
  const named = readAccountToken(body.token, 'verify', deps.auth.secret, deps.clock().getTime());
  // The generation must still be the link's: a newer sign-up for the address voided it.
  const confirmed = named !== undefined && (await deps.auth.accounts.markVerified(named.email, named.gen));
  if (form) return redirect(confirmed ? `${ACCOUNT_PAGES.login}?verified=1` : `${ACCOUNT_PAGES.login}?error=link_expired`);
  if (!confirmed) throw expiredLink();
  return said(request, 200, 'The address is confirmed; sign in.');
}

/**
 * POST /auth/password-reset-request `{ email }`: a reset link to the address, when it is a
 * member's with a password. Editors' accounts are reset by the operator (`npm run admin`), and
 * an account that signs in only through the identity provider never gets a password by mail.
 */
export async function postPasswordResetRequest(request: Request, deps: MemberDeps, context: RequestContext): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, PasswordResetRequestSchema, backTo(ACCOUNT_PAGES.forgot));
  if (body instanceof Response) return body;
  // Before anything is looked up: where accounts are only read, the answer is the same for every address.
  const unavailable = unavailableHere(deps, form, backTo(ACCOUNT_PAGES.forgot), 'Resetting a password', 'no link was sent');
  if (unavailable) return unavailable;
  const limited = await overMailLimit(deps, context, form, backTo(ACCOUNT_PAGES.forgot));
  if (limited) return limited;
  const account = await deps.auth.accounts.find(normalizeEmail(body.email));
  if (account?.role === 'member' && account.passwordHash) {
    const link = pageLink(deps, ACCOUNT_PAGES.reset, accountToken('reset', account, deps.auth.secret, deps.clock().getTime()));
    await mailOnce(deps, account.email, resetMail(link, deps.state().catalog.site), 'reset');
  }
  if (form) return redirect(`${ACCOUNT_PAGES.forgot}?sent=1`);
  return said(request, 202, 'If the address has an account, a link to choose a new password is on its way; it works for an hour.');
}

/** POST /auth/password-reset `{ token, password }`: the new password; every session and every other link of the account ends. */
export async function postPasswordReset(request: Request, deps: MemberDeps): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, PasswordResetSchema, backTo(ACCOUNT_PAGES.reset));
  if (body instanceof Response) return body;
  const named = readAccountToken(body.token, 'reset', deps.auth.secret, deps.clock().getTime());
  const hash = await hashPassword(body.password);
  // Changed only while the account still has the link's generation: a link works once, even for two requests at once.
  const changed = named !== undefined && (await deps.auth.accounts.setPassword(named.email, hash, named.gen));
  if (!changed) {
    if (form) return redirect(`${ACCOUNT_PAGES.forgot}?error=link_expired`);
    throw expiredLink();
  }
  if (form) return redirect(`${ACCOUNT_PAGES.login}?reset=1`);
  return said(request, 200, 'The password is changed; sign in with it.');
}

// --- internal ---

function expiredLink(): ApiError {
  return new ApiError(400, 'validation_error', 'token: the link has expired, was used already or was replaced by a newer one.', { hint: 'Ask for a new link (sign up again, or /forgot-password).' });
}
