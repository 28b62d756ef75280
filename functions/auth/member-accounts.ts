/**
 * People's own accounts (issue 18, item 2): sign-up with a confirmed e-mail address, and a
 * password reset through an e-mailed link. Each takes an HTML form post (303 to the page that
 * says what happened: the pages work without JavaScript) or JSON. Answers never say whether an
 * address has an account: sign-up and a reset request answer the same either way, in the same
 * time (mail goes in the background), and the mail says the rest to the owner of the address.
 * Same-origin only; requests that send mail are limited per client (`deps.auth.mailLimit`) and
 * mails per recipient (`deps.auth.recipientLimit`), so the forms cannot flood a mailbox.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import type { RequestContext } from '../http/middleware.ts';
import { isFormBody, readBody } from '../http/request-body.ts';
import { checkBody } from '../http/valid-body.ts';
import { absolute } from '../../src/agents/site-urls.ts';
import { PasswordResetRequestSchema, PasswordResetSchema, SignUpSchema, TokenSchema } from '../../src/schemas/requests.ts';
import type { Mail } from '../notify/messages.ts';
import { limitKey } from '../http/limit-key.ts';
import type * as z from 'zod';
import { requireSameOrigin } from './guard.ts';
import { accountToken, ACCOUNT_PAGES, alreadyRegisteredMail, readAccountToken, resetMail, verifyMail } from './account-mail.ts';
import { hashPassword } from './passwords.ts';
import { redirect } from './sign-in.ts';
import { normalizeEmail } from './users.ts';

export type MemberDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config'>;

/** POST /auth/signup `{ email, password }`: a member account, confirmed by the link mailed to the address. */
export async function postSignUp(request: Request, deps: MemberDeps, context: RequestContext): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, SignUpSchema, ACCOUNT_PAGES.signup);
  if (body instanceof Response) return body;
  const limited = await overMailLimit(deps, context, form, ACCOUNT_PAGES.signup);
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
  const body = await formOrJson(request, deps, TokenSchema, ACCOUNT_PAGES.login);
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
  const body = await formOrJson(request, deps, PasswordResetRequestSchema, ACCOUNT_PAGES.forgot);
  if (body instanceof Response) return body;
  // Before anything is looked up: where accounts are only read, the answer is the same for every address.
  deps.auth.accounts.assertWritable('Resetting a password', 'no link was sent');
  const limited = await overMailLimit(deps, context, form, ACCOUNT_PAGES.forgot);
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
  const body = await formOrJson(request, deps, PasswordResetSchema, ACCOUNT_PAGES.reset);
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

/**
 * The checked body; for a form whose fields do not pass, a 303 back to `page` naming the first
 * field in error (`?error=password`: the page words it; nothing typed is echoed into the page).
 */
async function formOrJson<S extends z.ZodType>(request: Request, deps: MemberDeps, schema: S, page: string): Promise<z.output<S> | Response> {
  requireSameOrigin(request, deps);
  const value = await readBody(request, 16 * 1024);
  const checked = checkBody(schema, value);
  if (checked.ok) return checked.value;
  if (!isFormBody(request)) throw checked.error;
  const field = /^`(email|password|token)`/.exec(checked.error.message)?.[1] ?? 'invalid';
  // The reset page keeps its link's token, so the person can try another password.
  const token = (value as { token?: unknown } | undefined)?.token;
  return redirect(`${page}?error=${field}${typeof token === 'string' && token ? `&token=${encodeURIComponent(token)}` : ''}`);
}

/** 429 (or a 303 saying so) when this client (IPv6: its /64) asked for too many mails this hour; else nothing. */
async function overMailLimit(deps: MemberDeps, context: RequestContext, form: boolean, page: string): Promise<Response | undefined> {
  const place = await deps.auth.mailLimit.reserve(limitKey(context.address), deps.clock().getTime());
  if (place.allowed) return undefined;
  if (form) return redirect(`${page}?error=throttled`);
  throw new ApiError(429, 'rate_limited', 'Too many requests that send e-mail from this address.', {
    hint: `Try again in ${place.retryAfterSeconds} seconds.`,
    headers: { 'Retry-After': String(place.retryAfterSeconds) },
  });
}

/**
 * Send `mail` in the background, unless the address had its share this hour
 * (`deps.auth.recipientLimit`): then nothing is sent, and the answer is the same, so many
 * clients together cannot flood one mailbox either.
 */
async function mailOnce(deps: MemberDeps, to: string, mail: Mail, kind: string): Promise<void> {
  const place = await deps.auth.recipientLimit.reserve(to, deps.clock().getTime());
  if (place.allowed) deps.auth.mail.later(to, mail, kind);
}

/** The site's page `path` with the token in its query. */
function pageLink(deps: MemberDeps, path: string, token: string): string {
  return `${absolute(deps.state().catalog.site.baseUrl, path)}?token=${encodeURIComponent(token)}`;
}

function expiredLink(): ApiError {
  return new ApiError(400, 'validation_error', 'token: the link has expired, was used already or was replaced by a newer one.', { hint: 'Ask for a new link (sign up again, or /forgot-password).' });
}

/** The JSON answer saying what happens next (`AccountMessage`), never cached. */
function said(request: Request, status: 200 | 202, message: string): Promise<Response> {
  return answerResponse(request, jsonAnswer(status, { success: true, message }, { 'Cache-Control': 'no-store' }));
}
