/**
 * What the handlers of people's own accounts share (member-accounts.ts, sign-in-link.ts): a
 * body read from an HTML form or JSON (a form that does not pass goes back to its page naming
 * the field), the limits on requests that send mail (per client, per recipient), the links the
 * mails carry, and the JSON answer saying what happens next.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { limitKey } from '../http/limit-key.ts';
import type { RequestContext } from '../http/app.ts';
import { isFormBody, readBody } from '../http/request-body.ts';
import { checkBody } from '../http/valid-body.ts';
import { absolute } from '../../src/agents/site-urls.ts';
import type { Mail } from '../notify/messages.ts';
import type * as z from 'zod';
import { requireSameOrigin } from './guard.ts';
import { redirect } from './sign-in.ts';

export type MemberDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config'>;

/** Where a form post goes back to with an `error` reason (the page words it), given the fields it sent. */
export type Back = (error: string, fields: Record<string, unknown>) => string;

/**
 * Back to `page` with `?error=`; a page that holds a link's token (the reset page) keeps it, so
 * the person can try again with the same link.
 * @example backTo('/signup')('password', {}) // '/signup?error=password'
 */
export function backTo(page: string): Back {
  return (error, fields) => {
    const token = fields.token;
    return `${page}?error=${error}${typeof token === 'string' && token ? `&token=${encodeURIComponent(token)}` : ''}`;
  };
}

/**
 * The checked body; for a form whose fields do not pass, a 303 `back` naming the first field in
 * error (`?error=password`: the page words it; nothing typed is echoed into the page).
 */
export async function formOrJson<S extends z.ZodType>(request: Request, deps: MemberDeps, schema: S, back: Back): Promise<z.output<S> | Response> {
  requireSameOrigin(request, deps);
  const value = await readBody(request, 16 * 1024);
  const checked = checkBody(schema, value);
  if (checked.ok) return checked.value;
  if (!isFormBody(request)) throw checked.error;
  const field = /^`(email|password|token)`/.exec(checked.error.message)?.[1] ?? 'invalid';
  return redirect(back(field, value && typeof value === 'object' ? (value as Record<string, unknown>) : {}));
}

/**
 * Where this deployment cannot do what the form asks, which writes an account and mails a link
 * (`what`; accounts only read, or no mail server: 503): a form post goes back to its page with
 * `unavailable`, which it words; JSON gets the 503 itself. Nothing when it can.
 */
export function unavailableHere(deps: MemberDeps, form: boolean, back: Back, what: string, outcome: string): Response | undefined {
  try {
    deps.auth.accounts.assertWritable(what, outcome);
    deps.auth.mail.assertDeliverable(what);
    return undefined;
  } catch (error) {
    if (form && error instanceof ApiError && error.status === 503) return redirect(back('unavailable', {}));
    throw error;
  }
}

/** 429 (or a 303 `back` with `throttled`) when this client (IPv6: its /64) asked for too many mails this hour; else nothing. */
export async function overMailLimit(deps: MemberDeps, context: RequestContext, form: boolean, back: Back): Promise<Response | undefined> {
  const place = await deps.auth.mailLimit.reserve(limitKey(context.address), deps.clock().getTime());
  if (place.allowed) return undefined;
  if (form) return redirect(back('throttled', {}));
  throw new ApiError(429, 'rate_limited', 'Too many requests that send e-mail from this address.', {
    hint: `Try again in ${place.retryAfterSeconds} seconds.`,
    headers: { 'Retry-After': String(place.retryAfterSeconds) },
  });
}

/**
 * Send `mail` in the background, unless the address had its share this hour
 * (`deps.auth.recipientLimit`): then nothing is sent, and the answer is the same, so many
 * clients together cannot flood one mailbox either. With no `mail` (nothing to tell this
 * address) the place is taken all the same, so that answer takes no less time.
 */
export async function mailOnce(deps: MemberDeps, to: string, mail: Mail | undefined, kind: string): Promise<void> {
  const place = await deps.auth.recipientLimit.reserve(to, deps.clock().getTime());
  if (place.allowed && mail) deps.auth.mail.later(to, mail, kind);
}

/** The site's page `path` with the token in its query. */
export function pageLink(deps: MemberDeps, path: string, token: string): string {
  return `${absolute(deps.state().catalog.site.baseUrl, path)}?token=${encodeURIComponent(token)}`;
}

/** The JSON answer saying what happens next (`AccountMessage`), never cached. */
export function said(request: Request, status: 200 | 202, message: string): Promise<Response> {
  return answerResponse(request, jsonAnswer(status, { success: true, message }, { 'Cache-Control': 'no-store' }));
}
