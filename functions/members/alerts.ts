/**
 * Members' alert digests (issue 18, item 4): one plain-text mail per member with alerts on,
 * when a saved item changed since the last digest or a saved deal's last day is near
 * (src/catalog/alert-digest.ts). A round runs at most once per ALERT_DIGEST_HOURS across every
 * instance (a claim in the database, under its alerts lock), on a timer the server starts;
 * POST /api/v1/admin/alerts runs one now (an admin, or a scheduler for serverless hosts). What
 * was told is kept only once the mail is sent, so a failed send is told again next round.
 *
 * Every digest carries a one-click unsubscribe (RFC 8058: `List-Unsubscribe` with
 * `List-Unsubscribe-Post`): a signed link naming the account, good for a year, that turns its
 * alerts off on a POST, with no session (a mail client posts it), and a page with one button for
 * a person who opens it (a GET never changes anything: mail scanners open links).
 */
import { absolute } from '../../src/agents/site-urls.ts';
import { alertDigest, WARN_DAYS, type Digest } from '../../src/catalog/alert-digest.ts';
import { changeWords } from '../../src/catalog/change-words.ts';
import { readableDate } from '../../src/catalog/labels.ts';
import { accountToken, ACCOUNT_PAGES, readAccountToken } from '../auth/account-mail.ts';
import { requireAdmin } from '../auth/guard.ts';
import { redirect } from '../auth/sign-in.ts';
import { needsPlan } from '../billing/plan-guard.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { isFormBody, readBody } from '../http/request-body.ts';
import type { Mail, SiteRef } from '../notify/messages.ts';
import { utcDay } from '../utc-day.ts';
import { DASHBOARD_PAGE } from './dashboard.ts';
import { everyHour } from '../ops/hourly.ts';

export type AlertDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config' | 'log'>;

/** What one round did. */
export interface AlertRound {
  /** Whether any member's digest was due. */
  ran: boolean;
  /** Members this round took (others may have been taken by a round on another instance). */
  members: number;
  mailed: number;
  failed: number;
  /** Members still due when the round stopped at its deadline: the next round takes them first. */
  left: number;
}

/** The one-click unsubscribe address (the API route). */
export const UNSUBSCRIBE_PATH = '/api/v1/alerts/unsubscribe';

/**
 * Run a digest round: every member with alerts on whose digest no round took within the interval
 * (`force`: every one, as the admin's request does), each taken by one statement, so rounds on
 * several instances at once mail nobody twice. `deadline` (epoch ms): stop taking members then
 * (a scheduled function's time limit); the rest stay due. A member whose digest fails is given
 * back and taken first by the next round. Nothing where accounts are only read.
 */
export async function runAlertRound(deps: AlertDeps, options: { force?: boolean; deadline?: number } = {}): Promise<AlertRound> {
  const round: AlertRound = { ran: false, members: 0, mailed: 0, failed: 0, left: 0 };
  if (!deps.auth.accounts.writable) return round;
  const now = deps.clock();
  const before = options.force ? now : new Date(now.getTime() - deps.config.alertDigestHours * 3600_000);
  const due = await deps.auth.accounts.memberData(({ profiles }) => profiles.dueForDigest(before));
  round.ran = due.length > 0;
  for (const [index, email] of due.entries()) {
    if (options.deadline !== undefined && Date.now() >= options.deadline) {
      round.left = due.length - index;
      break;
    }
    if (!(await deps.auth.accounts.memberData(({ profiles }) => profiles.takeForDigest(email, now, before)))) continue;
    round.members += 1;
    try {
      if (await digestOne(email, deps)) round.mailed += 1;
    } catch (error) {
      round.failed += 1;
      deps.log.warn('alert_digest_failed', { error: String(error) });
      await deps.auth.accounts.memberData(({ profiles }) => profiles.releaseDigest(email)).catch(() => undefined);
    }
  }
  if (round.ran) deps.log.info('alert_round', { members: round.members, mailed: round.mailed, failed: round.failed, left: round.left });
  return round;
}

/**
 * Every hour, a round for the members whose digest is due (each taken once per interval, across instances); the timer never
 * keeps the process alive. Off when ALERT_DIGEST_HOURS is 0.
 * @returns stop
 */
export function startAlertTimer(deps: AlertDeps): () => void {
  if (deps.config.alertDigestHours === 0) return () => undefined;
  return everyHour(() => void runAlertRound(deps).catch((error: unknown) => deps.log.warn('alert_round_failed', { error: String(error) })));
}

/** POST /admin/alerts: run a digest round now (admins; a scheduler on a serverless host signs in as one). */
export async function postAlertRound(request: Request, deps: AlertDeps): Promise<Response> {
  await requireAdmin(request, deps);
  const round = await runAlertRound(deps, { force: true });
  return answerResponse(request, jsonAnswer(200, { success: true, ...round }, { 'Cache-Control': 'no-store' }));
}

/**
 * POST /alerts/unsubscribe?token=: turn the named account's alerts off. The one-click POST a mail
 * client sends (`List-Unsubscribe=One-Click`), or the button of the unsubscribe page (a form with
 * `token`, answered with a 303 to the page saying it is done). No session: the signed link is the proof.
 */
export async function postUnsubscribe(request: Request, deps: AlertDeps): Promise<Response> {
  const body = await readBody(request, 2 * 1024).catch(() => undefined);
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  // The mail client's one-click POST is answered plainly; only the page's own form is sent back to the page.
  const page = isFormBody(request) && fields['List-Unsubscribe'] !== 'One-Click';
  const token = new URL(request.url).searchParams.get('token') ?? (typeof fields.token === 'string' ? fields.token : '');
  const named = readAccountToken(token, 'unsubscribe', deps.auth.secret, deps.clock().getTime());
  if (!named) {
    if (page) return redirect(`${ACCOUNT_PAGES.unsubscribe}?error=link`);
    throw new ApiError(400, 'validation_error', '`token` is not a valid unsubscribe link, or it is more than a year old.', { hint: `Sign in and turn alerts off on ${DASHBOARD_PAGE}.` });
  }
  await deps.auth.accounts.memberData(({ profiles }) => profiles.stopAlerts(named.email, deps.clock()), 'Unsubscribing');
  if (page) return redirect(`${ACCOUNT_PAGES.unsubscribe}?sent=1`);
  return answerResponse(request, jsonAnswer(200, { success: true, message: 'Alerts are off: no more digests are sent.' }, { 'Cache-Control': 'no-store' }));
}

/**
 * The digest mail: what changed, what ends soon, and how to stop.
 * @example digestMail(digest, site, oneClickUrl, pageUrl).subject // 'A saved item changed on Startup Deals'
 */
export function digestMail(digest: Digest, site: SiteRef, oneClickUrl: string, pageUrl: string): Mail {
  const changed = digest.changed.length;
  const ending = digest.ending.length;
  const subject =
    changed > 0 ? `${changed === 1 ? 'A saved item' : `${changed} saved items`} changed on ${site.name}` : `${ending === 1 ? 'A saved deal ends' : `${ending} saved deals end`} soon on ${site.name}`;
  const lines = [`Your alerts from ${site.name}.`, ''];
  if (changed > 0) {
    lines.push('Changed since our last e-mail:', '');
    for (const item of digest.changed) lines.push(`${item.title}${item.url ? ` (${absolute(site.baseUrl, item.url)})` : ''}`, ...item.changes.map((c) => `  ${changeWords(c)}`), '');
  }
  if (ending > 0) {
    lines.push(`Ending within ${WARN_DAYS} days:`, '');
    for (const deal of digest.ending) lines.push(`${deal.title}: last day ${readableDate(deal.expiryDate)} (${absolute(site.baseUrl, deal.url)})`);
    lines.push('');
  }
  lines.push(`Your dashboard: ${absolute(site.baseUrl, DASHBOARD_PAGE)}`, `Stop these e-mails: ${pageUrl}`);
  return {
    subject,
    text: lines.join('\n'),
    headers: { 'List-Unsubscribe': `<${oneClickUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

// --- internal ---

/** One member's digest: sent when there is news, then what it told is kept. @returns whether a mail went out */
async function digestOne(email: string, deps: AlertDeps): Promise<boolean> {
  const rows = await deps.auth.accounts.memberData(({ saved }) => saved.list(email));
  const digest = alertDigest(rows, deps.state().catalog, utcDay(deps.clock()));
  const news = digest.changed.length > 0 || digest.ending.length > 0;
  if (news) {
    const account = await deps.auth.accounts.find(email);
    // Paid plans on and alerts need one the member lacks: nothing is sent, nothing kept as told (a plan later tells it).
    if (!account || (await needsPlan('alerts', { email, role: account.role }, deps))) return false;
    const site = deps.state().catalog.site;
    const token = encodeURIComponent(accountToken('unsubscribe', account, deps.auth.secret, deps.clock().getTime()));
    const mail = digestMail(digest, site, `${absolute(site.baseUrl, UNSUBSCRIBE_PATH)}?token=${token}`, `${absolute(site.baseUrl, ACCOUNT_PAGES.unsubscribe)}?token=${token}`);
    if (!(await deps.auth.mail.send(email, mail, 'alert_digest'))) throw new Error('the digest could not be sent');
  }
  if (digest.told.length > 0) await deps.auth.accounts.memberData(({ saved }) => saved.markAlerted(email, digest.told), 'Keeping what alerts told');
  return news;
}
