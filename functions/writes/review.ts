/**
 * The review queue (admin only), over the private submission store (docs/submissions.md):
 * GET /api/v1/admin/submissions lists submissions, pending by default, reviewed ones from the
 * archive, a page at a time; POST /api/v1/admin/submissions/approve publishes one as a deal
 * (status chosen by the admin) in a commit of that deal file alone, authored by the admin,
 * then marks it approved; with `deal` it publishes that deal as the admin edited it (the
 * fields and validation of POST /deals); POST /api/v1/admin/submissions/reject records the reason in the
 * private store only, so nothing of a rejected submission reaches the content history.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { ApprovalSchema, RejectionSchema, type Approval } from '../../src/schemas/requests.ts';
import { newRecord, NO_STORE, slugFor } from './admin-records.ts';
import { DEALS } from './record-kinds.ts';
import { dealIdOf, suggestedDeal } from './review-deal.ts';
import { requireAdmin, type SessionDeps } from '../auth/guard.ts';
import { applyChange, type RecordWriteDeps } from './record-writes.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { invalidParameter, wholeParam } from '../http/params.ts';
import { validBody } from '../http/valid-body.ts';
import { submissionRefusal } from '../submissions/refusal.ts';
import { SUBMISSION_ID, type StatusFilter, type SubmissionRecord } from '../submissions/store.ts';
import { utcDay } from '../utc-day.ts';
import { SUBMISSION_PAGE } from '../../src/schemas/query.ts';

/** What every review operation uses: an admin's session, the submission store, the log (its refusals), the submitter's notice, the catalog (suggested deals). */
export type ReviewDeps = SessionDeps & Pick<Deps, 'submissions' | 'log' | 'notify' | 'state' | 'clock'>;

const REVIEW_STATES = ['pending', 'approved', 'rejected', 'all'] as const;

export async function getSubmissions(request: Request, deps: ReviewDeps): Promise<Response> {
  await requireAdmin(request, deps);
  const params = new URL(request.url).searchParams;
  const status = params.get('status') || 'pending';
  if (!(REVIEW_STATES as readonly string[]).includes(status)) {
    throw new ApiError(400, 'validation_error', `Invalid value for query parameter \`status\`.`, { hint: `Allowed values: ${REVIEW_STATES.join(', ')}.` });
  }
  const limit = Math.min(wholeParam(params, 'limit', SUBMISSION_PAGE.default, 1), SUBMISSION_PAGE.max);
  const offset = wholeParam(params, 'offset', 0, 0);
  const id = params.get('id');
  if (id !== null && !SUBMISSION_ID.test(id)) throw invalidParameter({ name: 'id', message: 'not a submission id', allowed: 'sub- and 16 hexadecimal digits, as listed here' });
  const { submissions, total } = await refusedAs503(deps, () => (id === null ? deps.submissions.list(status as StatusFilter, { limit, offset }) : oneSubmission(deps, id, status)));
  // What approving each pending one as it is would publish: the prefill of "Edit and approve".
  const today = utcDay(deps.clock());
  const deals = Object.fromEntries(submissions.filter((s) => s.status === 'pending').map((s) => [s.id, suggestedDeal(deps.state().catalog, s, today)]));
  return answerResponse(request, jsonAnswer(200, { success: true, submissions, total, deals }, NO_STORE));
}

export async function approveSubmission(request: Request, deps: ReviewDeps & RecordWriteDeps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = await validBody(request, ApprovalSchema);
  let reviewed: SubmissionRecord | undefined;
  let dealId = '';
  // Decided inside the write queue, so a concurrent approval or rejection on this instance sees this one.
  await refusedAs503(deps, () =>
    applyChange(deps, DEALS, async (catalog) => {
      const submission = await pendingSubmission(deps, body.id);
      dealId = dealIdOf(submission);
      const approved: SubmissionRecord = { ...submission, status: 'approved', reviewedAt: deps.clock().toISOString(), reviewedBy: session.email, dealId };
      reviewed = approved;
      const afterCommit = () => recordApproval(deps, approved);
      // Published before, but the private store failed to record it (a crash, a full disk): record it now.
      if (catalog.editable.dealById.has(dealId)) return { upserts: [], removals: [], message: '', actor: session.email, afterCommit };
      const deal = approvedDeal(catalog, submission, body, utcDay(deps.clock()));
      if (catalog.editable.dealBySlug.has(deal.slug)) throw new ApiError(400, 'conflict', `A deal with slug \`${deal.slug}\` already exists.`, { hint: 'Send another `slug`.' });
      // Only ids in the message: the slug and title are made from what the submitter typed.
      const made = deal.draft === true ? 'draft deal' : 'publish deal';
      return { upserts: [deal], removals: [], message: `Approve submission ${submission.id}: ${made} ${dealId}`, actor: session.email, afterCommit };
    }),
  );
  // The editable catalog: an edited deal may have been approved as a draft.
  const published = deps.state().catalog.editable.dealById.get(dealId);
  // Committed and recorded: the submitter hears of it in the background (docs/notifications.md);
  // not of a deal approved as a draft, whose page does not exist yet (the retention sweep drops the address).
  if (reviewed && published && published.draft !== true) deps.notify.reviewed(reviewed, published);
  return answerResponse(request, jsonAnswer(200, { success: true, deal: published, submission: reviewed }, NO_STORE));
}

export async function rejectSubmission(request: Request, deps: ReviewDeps & Pick<Deps, 'content'>): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = await validBody(request, RejectionSchema);
  const reason = body.reason.slice(0, 1000);
  let reviewed: SubmissionRecord | undefined;
  // No commit, but in the same queue as approvals: a rejection cannot slip between an approval's check and its commit.
  await refusedAs503(deps, () =>
    deps.content.exclusive(async () => {
      const submission = await pendingSubmission(deps, body.id);
      const dealId = dealIdOf(submission);
      if (deps.state().catalog.editable.dealById.has(dealId)) {
        throw new ApiError(400, 'conflict', `Submission \`${submission.id}\` is already published as deal \`${dealId}\`.`, { hint: 'Approve it to record that, or delete the deal first.' });
      }
      reviewed = { ...submission, status: 'rejected', reviewedAt: deps.clock().toISOString(), reviewedBy: session.email, rejectionReason: reason };
      await markReviewed(deps, reviewed);
    }),
  );
  if (reviewed) deps.notify.reviewed(reviewed);
  return answerResponse(request, jsonAnswer(200, { success: true, submission: reviewed }, NO_STORE));
}

// --- internal ---

/** `?id=`: that submission as a one-item page, when it has the status asked for (the form that reviews it reads only it). */
async function oneSubmission(deps: Pick<Deps, 'submissions'>, id: string, status: string): Promise<{ submissions: SubmissionRecord[]; total: number }> {
  const found = await deps.submissions.read(id);
  const submissions = found && (status === 'all' || found.status === status) ? [found] : [];
  return { submissions, total: submissions.length };
}

async function pendingSubmission(deps: Pick<Deps, 'submissions'>, id: string): Promise<SubmissionRecord> {
  const submission = await deps.submissions.read(id);
  if (!submission) throw new ApiError(404, 'not_found', `No submission has id \`${id}\`.`, { hint: 'List them with GET /api/v1/admin/submissions.' });
  if (submission.status !== 'pending') throw alreadyReviewed(id, submission.status);
  return submission;
}

/** Record a review; another instance may have reviewed it since this one read it. */
async function markReviewed(deps: Pick<Deps, 'submissions'>, reviewed: SubmissionRecord): Promise<void> {
  if (await deps.submissions.review(reviewed)) return;
  const now = await deps.submissions.read(reviewed.id);
  throw alreadyReviewed(reviewed.id, now?.status ?? 'removed', reviewed.dealId);
}

/**
 * `markReviewed` once the deal is committed: the submission store failing now must not answer
 * "nothing was changed", since the deal is out; approving again records it (the deal is found by id).
 */
async function recordApproval(deps: Pick<Deps, 'submissions' | 'log'>, approved: SubmissionRecord): Promise<void> {
  try {
    await markReviewed(deps, approved);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    deps.log.error('approval_not_recorded', { submission: approved.id, deal: approved.dealId, error: String(error instanceof Error ? error.message : error) });
    throw new ApiError(503, 'service_unavailable', `Deal \`${approved.dealId}\` is committed, but the review queue could not record the approval.`, {
      hint: 'Approve the submission again in a minute: that records it without a second deal.',
      headers: { 'Retry-After': '60' },
    });
  }
}

function alreadyReviewed(id: string, status: string, published?: string): ApiError {
  const hint = published ? `Deal \`${published}\` was published meanwhile: delete it if it should not be public.` : 'Only pending submissions can be reviewed.';
  return new ApiError(400, 'conflict', `Submission \`${id}\` was already ${status}.`, { hint });
}

/**
 * The deal to publish: the admin's edited `deal` (its fields over nothing, like POST /deals; the
 * id stays the submission's so a retry finds it), else the suggestion with the simple overrides.
 * Validation is the write path's own (applyChange), so both answer a bad field alike.
 */
function approvedDeal(catalog: Catalog, submission: SubmissionRecord, body: Approval, today: string): Deal {
  const suggested = suggestedDeal(catalog, submission, today);
  if (body.deal) {
    const slug = slugFor(DEALS, { ...body.deal, slug: body.deal.slug || suggested.slug }, 'deal');
    return newRecord(DEALS, { ...body.deal, id: suggested.id, slug }, today);
  }
  const category = body.category ?? suggested.category;
  if (!category) throw new ApiError(400, 'validation_error', 'category is required for a submission in category `other`.', { hint: 'Send a deal category slug.' });
  return { ...suggested, category, status: body.status, title: body.title ?? suggested.title, slug: body.slug ?? suggested.slug } as Deal;
}

/** The submission store's refusals (full, unreachable) as 503; anything else as it was. */
async function refusedAs503<T>(deps: Pick<Deps, 'log'>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw submissionRefusal(error, deps.log);
  }
}
