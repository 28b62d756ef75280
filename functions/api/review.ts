/**
 * The review queue (admin only): GET /api/v1/admin/submissions lists submissions; POST
 * /api/v1/admin/submissions/approve turns one into a deal (status chosen by the admin) and
 * marks it approved, in one commit; POST /api/v1/admin/submissions/reject records a reason.
 */
import { codeSpan } from '../../src/agents/markdown-policy.ts';
import { DEAL_STATUSES, type Deal } from '../../src/schemas/deal.ts';
import { slugify } from '../../src/schemas/fields.ts';
import { toMarkdown } from '../../src/pipeline/serialize.ts';
import { requireAdmin } from '../auth/guard.ts';
import { applyDealChange } from '../deal-writes.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { asJsonObject, readBody } from '../http/request-body.ts';
import { SUBMISSIONS_FOLDER, type SubmissionRecord } from '../submissions.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };
const REVIEW_STATES = ['pending', 'approved', 'rejected', 'all'] as const;

/** Default deal category for each submission category (the admin may choose another). */
export const CATEGORY_FOR_SUBMISSION: Record<string, string> = {
  cloud: 'cloud-credits',
  saas: 'saas-discounts',
  marketing: 'ad-credits',
  hiring: 'hiring',
  legal: 'legal',
};

export async function getSubmissions(request: Request, deps: Deps): Promise<Response> {
  await requireAdmin(request, deps);
  const status = new URL(request.url).searchParams.get('status') || 'pending';
  if (!(REVIEW_STATES as readonly string[]).includes(status)) {
    throw new ApiError(400, 'validation_error', `Invalid value for query parameter \`status\`.`, { hint: `Allowed values: ${REVIEW_STATES.join(', ')}.` });
  }
  const all = await deps.submissions.list();
  const submissions = status === 'all' ? all : all.filter((s) => s.status === status);
  return answerResponse(request, jsonAnswer(200, { success: true, submissions, total: submissions.length }, NO_STORE));
}

export async function approveSubmission(request: Request, deps: Deps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = asJsonObject(await readBody(request));
  const status = body.status ?? 'active';
  if (typeof status !== 'string' || !(DEAL_STATUSES as readonly string[]).includes(status)) {
    throw new ApiError(400, 'validation_error', `status must be one of ${DEAL_STATUSES.join(', ')}.`, { hint: 'Choose the new deal status.' });
  }
  let reviewed: SubmissionRecord | undefined;
  let slug = '';
  // Decided inside the write queue, so a concurrent approval or rejection sees this one.
  await applyDealChange(deps, async (catalog) => {
    const submission = await pendingSubmission(deps, body.id);
    const category = typeof body.category === 'string' && body.category ? body.category : CATEGORY_FOR_SUBMISSION[submission.category];
    if (!category) throw new ApiError(400, 'validation_error', 'category is required for a submission in category `other`.', { hint: 'Send a deal category slug.' });
    const title = typeof body.title === 'string' && body.title.trim() ? body.title.trim() : `${submission.company_name}: ${submission.deal_value}`.slice(0, 200);
    slug = typeof body.slug === 'string' && body.slug ? body.slug : slugify(`${submission.company_name} ${submission.deal_value}`) || submission.id;
    if (catalog.dealBySlug.has(slug)) throw new ApiError(400, 'conflict', `A deal with slug \`${slug}\` already exists.`, { hint: 'Send another `slug`.' });
    const code = submission.redemption_method === 'code' ? `\n\nRedemption code: ${codeSpan(submission.redemption_link)}` : '';
    const deal = {
      id: `d-${submission.id.slice(4, 12)}`,
      slug,
      title,
      provider: submission.company_name,
      category,
      description: `${submission.benefit_description}${code}`,
      value: submission.deal_value || undefined,
      status,
      applicationUrl: submission.redemption_method === 'link' ? submission.redemption_link : submission.website_url,
      providerWebsite: submission.website_url,
      logoUrl: submission.logo_url,
      featured: false,
      recommended: false,
      verified: false,
      lastUpdated: deps.clock().toISOString().slice(0, 10),
    } as Deal;
    reviewed = { ...submission, status: 'approved', reviewedAt: deps.clock().toISOString(), reviewedBy: session.email, dealId: deal.id };
    return {
      upserts: [deal],
      removals: [],
      alsoWrite: [{ path: `${SUBMISSIONS_FOLDER}/${submission.id}.md`, text: toMarkdown({ ...reviewed }, '') }],
      message: `Approve submission ${submission.id} as deal ${slug}`,
      actor: session.email,
    };
  });
  const published = deps.state().catalog.dealBySlug.get(slug);
  return answerResponse(request, jsonAnswer(200, { success: true, deal: published, submission: reviewed }, NO_STORE));
}

export async function rejectSubmission(request: Request, deps: Deps): Promise<Response> {
  const session = await requireAdmin(request, deps);
  const body = asJsonObject(await readBody(request));
  const reason = typeof body.reason === 'string' ? body.reason.trim().slice(0, 1000) : '';
  if (!reason) throw new ApiError(400, 'validation_error', 'reason is required to reject a submission.', { hint: 'Say why, in a sentence.' });
  let reviewed: SubmissionRecord | undefined;
  await applyDealChange(deps, async () => {
    const submission = await pendingSubmission(deps, body.id);
    reviewed = { ...submission, status: 'rejected', reviewedAt: deps.clock().toISOString(), reviewedBy: session.email, rejectionReason: reason };
    return {
      upserts: [],
      removals: [],
      alsoWrite: [{ path: `${SUBMISSIONS_FOLDER}/${submission.id}.md`, text: toMarkdown({ ...reviewed }, '') }],
      message: `Reject submission ${submission.id}`,
      actor: session.email,
    };
  });
  return answerResponse(request, jsonAnswer(200, { success: true, submission: reviewed }, NO_STORE));
}

// --- internal ---

async function pendingSubmission(deps: Deps, id: unknown): Promise<SubmissionRecord> {
  if (typeof id !== 'string' || !id) throw new ApiError(400, 'validation_error', 'id is required.', { hint: 'Send the submission id.' });
  const submission = await deps.submissions.read(id);
  if (!submission) throw new ApiError(404, 'not_found', `No submission has id \`${id}\`.`, { hint: 'List them with GET /api/v1/admin/submissions.' });
  if (submission.status !== 'pending') throw new ApiError(400, 'conflict', `Submission \`${id}\` was already ${submission.status}.`, { hint: 'Only pending submissions can be reviewed.' });
  return submission;
}
