/**
 * Deals submitted by members (issue 18, item 5). A submission made in a signed-in browser (the
 * /submit/ form, or the API from the site's own pages) is linked to the account once it is
 * stored: the dashboard then shows its review state, and the next form is prefilled. Everything
 * else about a submission (limits, validation, the store, the review) is the anonymous path's,
 * unchanged (SPEC `submitDeal`). Where `PLAN_REQUIRED_FOR` names `submissions`, a member without
 * a plan submits as anyone does: accepted, not linked.
 */
import type { Deps } from '../deps.ts';
import { currentSession, requireSameOrigin } from '../auth/guard.ts';
import { needsPlan } from '../billing/plan-guard.ts';
import { ApiError } from '../http/errors.ts';
import type { SubmissionRecord } from '../submissions/store.ts';
import type { SubmissionLink } from './submission-links.ts';
import { paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { MemberSubmission, SubmitPrefill } from '../../src/schemas/member-submissions.ts';

export type MemberSubmissionDeps = Pick<Deps, 'state' | 'clock' | 'auth' | 'config' | 'log' | 'submissions'>;

/**
 * The account a submission is to be linked to: a signed-in session whose request comes from the
 * site itself, when its plan allows (undefined otherwise: the submission is anonymous). Never
 * refuses the submission: a cookie that fails any check, or an accounts database that cannot
 * answer, only means no link.
 */
export async function submittingMember(request: Request, deps: MemberSubmissionDeps): Promise<string | undefined> {
  if (!request.headers.get('cookie')) return undefined;
  try {
    const session = await currentSession(request, deps);
    if (!session) return undefined;
    requireSameOrigin(request, deps);
    return (await needsPlan('submissions', session, deps)) ? undefined : session.email;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return undefined;
    deps.log.warn('submission_not_linked', { problem: String(error) });
    return undefined;
  }
}

/** Link a stored submission to the member's account; a failure is logged (the submission is stored all the same). */
export async function linkSubmission(email: string, link: SubmissionLink, deps: MemberSubmissionDeps): Promise<void> {
  try {
    await deps.auth.accounts.memberData(({ submissions }) => submissions.add(email, link), 'Linking a submission');
  } catch (error) {
    deps.log.warn('submission_not_linked', { submission: link.id, problem: String(error) });
  }
}

/** Links with the review state of each submission as its store says it now (`unknown` where it cannot be read). */
export async function withReviewStates(links: readonly SubmissionLink[], deps: Pick<MemberSubmissionDeps, 'submissions' | 'state'>): Promise<MemberSubmission[]> {
  const catalog = deps.state().catalog;
  return Promise.all(
    links.map(async (link) => {
      const record = await deps.submissions.read(link.id).catch(() => undefined);
      return { ...link, ...reviewOf(record, catalog) };
    }),
  );
}

/** What /submit/ fills in for the request's signed-in member: undefined without one. */
export async function signedInSubmitPrefill(request: Request, deps: MemberSubmissionDeps): Promise<SubmitPrefill | undefined> {
  const session = await currentSession(request, deps);
  if (!session) return undefined;
  const [last] = await deps.auth.accounts.memberData(({ submissions }) => submissions.list(session.email, 1));
  const tracked = !(await needsPlan('submissions', session, deps));
  return { email: session.email, ...(last ? { companyName: last.companyName, websiteUrl: last.websiteUrl } : {}), tracked };
}

/**
 * A deleted account's submissions keep no trace of it: its address is removed from each record
 * (the links went with the account). What cannot be reached now is logged, not retried: the
 * retention sweep removes every address after review in any case.
 */
export async function forgetSubmitter(ids: readonly string[], deps: Pick<MemberSubmissionDeps, 'submissions' | 'log'>): Promise<void> {
  for (const id of ids) {
    await deps.submissions.forgetEmail(id).catch((error: unknown) => deps.log.warn('submission_email_kept', { submission: id, problem: String(error) }));
  }
}

// --- internal ---

function reviewOf(record: SubmissionRecord | undefined, catalog: Catalog): Omit<MemberSubmission, keyof SubmissionLink> {
  if (!record) return { status: 'unknown' };
  const reviewed = record.reviewedAt ? { reviewedAt: record.reviewedAt } : {};
  if (record.status === 'rejected') return { status: 'rejected', ...reviewed, ...(record.rejectionReason?.trim() ? { reason: record.rejectionReason.trim() } : {}) };
  const deal = record.status === 'approved' && record.dealId ? catalog.dealById.get(record.dealId) : undefined;
  return { status: record.status, ...reviewed, ...(deal ? { deal: { id: deal.id, title: deal.title, url: paths.deal(deal) } } : {}) };
}
