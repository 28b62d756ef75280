/**
 * People's own accounts (issue 18, item 2): sign-up with a confirmed e-mail address, and a
 * password reset through an e-mailed link. Each takes an HTML form post (303 to the page that
 * says what happened: the pages work without JavaScript) or JSON. Answers never say whether an
 * address has an account: sign-up and a reset request answer the same either way, and the
 * mail says the rest to the owner of the address. Same-origin only; per address, requests that
 * send mail are limited (`deps.auth.mailLimit`), so the forms cannot be used to flood a mailbox.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import type { RequestContext } from '../http/middleware.ts';
import { isFormBody, readBody } from '../http/request-body.ts';
import { checkBody } from '../http/valid-body.ts';
import { absolute } from '../../src/agents/site-urls.ts';
import { PasswordResetRequestSchema, PasswordResetSchema, SignUpSchema } from '../../src/schemas/requests.ts';
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
  const body = await formOrJson(request, deps, SignUpSchema, '/signup');
  if (body instanceof Response) return body;
  const limited = await overMailLimit(deps, context, form, '/signup');
  if (limited) return limited;
  const email = normalizeEmail(body.email);
  const site = deps.state().catalog.site;
  const now = deps.clock().getTime();
  if (await deps.auth.accounts.addMember(email, await hashPassword(body.password))) {
    const account = await deps.auth.accounts.find(email);
    if (account) await deps.auth.mail.send(email, verifyMail(verifyLink(deps, accountToken('verify', account, deps.auth.secret, now)), site), 'verify');
  } else {
    const existing = await deps.auth.accounts.find(email);
    // Not confirmed yet: the link again (the password stays the one first chosen). Confirmed: a note, no link.
    if (existing && !existing.emailVerifiedAt) await deps.auth.mail.send(email, verifyMail(verifyLink(deps, accountToken('verify', existing, deps.auth.secret, now)), site), 'verify');
    else await deps.auth.mail.send(email, alreadyRegisteredMail(site), 'already-registered');
  }
  if (form) return redirect('/signup?sent=1');
  return accepted(request, 'Check your e-mail: the link in it confirms the address and finishes the sign-up.');
}

/** GET /auth/verify?token=: the link of the confirmation mail; 303 to the sign-in page, which says whether it worked. */
export async function getVerify(request: Request, deps: MemberDeps): Promise<Response> {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const named = readAccountToken(token, 'verify', deps.auth.secret, deps.clock().getTime());
  const account = named && (await deps.auth.accounts.find(named.email));
  if (!named || !account || (account.generation ?? '') !== named.gen) return redirect(`${ACCOUNT_PAGES.login}?error=link_expired`);
  await deps.auth.accounts.markVerified(account.email);
  return redirect(`${ACCOUNT_PAGES.login}?verified=1`);
}

/** POST /auth/password-reset-request `{ email }`: a reset link to the address, when it has an account. */
export async function postPasswordResetRequest(request: Request, deps: MemberDeps, context: RequestContext): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, PasswordResetRequestSchema, ACCOUNT_PAGES.forgot);
  if (body instanceof Response) return body;
  const limited = await overMailLimit(deps, context, form, ACCOUNT_PAGES.forgot);
  if (limited) return limited;
  const account = await deps.auth.accounts.find(normalizeEmail(body.email));
  if (account) {
    const link = `${absolute(deps.state().catalog.site.baseUrl, ACCOUNT_PAGES.reset)}?token=${encodeURIComponent(accountToken('reset', account, deps.auth.secret, deps.clock().getTime()))}`;
    await deps.auth.mail.send(account.email, resetMail(link, deps.state().catalog.site), 'reset');
  }
  if (form) return redirect(`${ACCOUNT_PAGES.forgot}?sent=1`);
  return accepted(request, 'If the address has an account, a link to choose a new password is on its way; it works for an hour.');
}

/** POST /auth/password-reset `{ token, password }`: the new password; every session and every other link of the account ends. */
export async function postPasswordReset(request: Request, deps: MemberDeps): Promise<Response> {
  const form = isFormBody(request);
  const body = await formOrJson(request, deps, PasswordResetSchema, ACCOUNT_PAGES.reset);
  if (body instanceof Response) return body;
  const named = readAccountToken(body.token, 'reset', deps.auth.secret, deps.clock().getTime());
  const account = named && (await deps.auth.accounts.find(named.email));
  if (!named || !account || (account.generation ?? '') !== named.gen) {
    if (form) return redirect(`${ACCOUNT_PAGES.forgot}?error=link_expired`);
    throw new ApiError(400, 'validation_error', 'token: the link has expired or was used already.', { hint: 'Ask for a new link on /forgot-password.' });
  }
  await deps.auth.accounts.setPassword(account.email, await hashPassword(body.password));
  if (form) return redirect(`${ACCOUNT_PAGES.login}?reset=1`);
  return answerResponse(request, jsonAnswer(200, { success: true, message: 'The password is changed; sign in with it.' }, { 'Cache-Control': 'no-store' }));
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

/** 429 (or a 303 saying so) when this address asked for too many mails this hour; else nothing. */
async function overMailLimit(deps: MemberDeps, context: RequestContext, form: boolean, page: string): Promise<Response | undefined> {
  const place = await deps.auth.mailLimit.reserve(context.address, deps.clock().getTime());
  if (place.allowed) return undefined;
  if (form) return redirect(`${page}?error=throttled`);
  throw new ApiError(429, 'rate_limited', 'Too many requests that send e-mail from this address.', {
    hint: `Try again in ${place.retryAfterSeconds} seconds.`,
    headers: { 'Retry-After': String(place.retryAfterSeconds) },
  });
}

function verifyLink(deps: MemberDeps, token: string): string {
  return `${absolute(deps.state().catalog.site.baseUrl, ACCOUNT_PAGES.verify)}?token=${encodeURIComponent(token)}`;
}

function accepted(request: Request, message: string): Promise<Response> {
  return answerResponse(request, jsonAnswer(202, { success: true, message }, { 'Cache-Control': 'no-store' }));
}
