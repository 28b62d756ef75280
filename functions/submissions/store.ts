/**
 * Where submissions live: a private store outside the published content repository (DESIGN
 * "Submissions are not content", docs/submissions.md). One small interface, two engines:
 * files under `DATA_DIR/submissions/` (one instance, the default) and PostgreSQL when
 * `DATABASE_URL` is set (several instances share it). A resolved write is durable.
 */
import { createHash } from 'node:crypto';
import type { Submission } from '../../src/schemas/submission.ts';

export type ReviewState = 'pending' | 'approved' | 'rejected';
/** A listing filter: one state, or every record. */
export type StatusFilter = ReviewState | 'all';

/** A stored submission: the submitted fields plus review state. */
export interface SubmissionRecord extends Submission {
  id: string;
  status: ReviewState;
  submittedAt: string;
  reviewedAt?: string;
  reviewedBy?: string;
  rejectionReason?: string;
  dealId?: string;
  /** When the retention sweep removed `submitter_email`. */
  emailRemovedAt?: string;
}

/** The rules a new submission is admitted under, checked atomically with the write. */
export interface Admission {
  /** A record with the same company and link submitted after this is the same submission. */
  duplicateSince: Date;
  /** No new record once this many are pending. */
  maxPending: number;
}

export type PutOutcome = { outcome: 'stored' } | { outcome: 'exists' } | { outcome: 'full' } | { outcome: 'duplicate'; id: string };

export interface SubmissionStore {
  /**
   * Store a new record, durably, unless its id is already there (`exists`: nothing changes).
   * With `admission`, also unless a duplicate arrived since (`duplicate`, its id) or the queue
   * is full (`full`); the check and the write are one step, across instances too.
   */
  put(record: SubmissionRecord, admission?: Admission): Promise<PutOutcome>;
  get(id: string): Promise<SubmissionRecord | undefined>;
  /** Records in `status`, newest submitted first, one page of them, and how many there are in all. */
  list(status: StatusFilter, page: { limit: number; offset: number }): Promise<{ records: SubmissionRecord[]; total: number }>;
  /** Record the review of a pending record (reviewed ones are archived); false when it is not pending (any more). */
  update(reviewed: SubmissionRecord): Promise<boolean>;
  /** Remove `submitter_email` from records reviewed before `reviewedBefore`; resolves with how many changed. */
  forgetEmails(reviewedBefore: Date, now: Date): Promise<number>;
  /** Remove `submitter_email` from one record now (its review notice was its last use); false when it had none. */
  forgetEmail(id: string, now: Date): Promise<boolean>;
  countPending(): Promise<number>;
  close(): Promise<void>;
}

/** The store cannot be read or written now (disk full or read-only, database unreachable). */
export class SubmissionStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SubmissionStoreUnavailableError';
  }
}

/**
 * What makes two submissions the same one: company and link, ignoring case, spacing and a
 * trailing slash; hashed, so an index holds 22 characters rather than up to 420.
 * @example duplicateKey({ company_name: 'Acme', redemption_link: 'https://acme.example/' })
 */
export function duplicateKey(s: Pick<Submission, 'company_name' | 'redemption_link'>): string {
  const company = s.company_name.trim().toLowerCase().replace(/\s+/g, ' ');
  const link = s.redemption_link.trim().toLowerCase().replace(/\/+$/, '');
  return createHash('sha256').update(`${company}\n${link}`).digest('base64url').slice(0, 22);
}

/** A submission id: `sub-` and 16 hex digits (random; the derived deal id takes 8 of them). */
export const SUBMISSION_ID = /^sub-[a-f0-9]{16}$/;
