/**
 * The submission desk: takes deal submissions into the private store (docs/submissions.md),
 * never into the content repository. A submission is admitted unless the same company and
 * link came in within a day (the earlier id is answered) or the pending queue is full; it is
 * acknowledged once durable. Reviews are recorded here; submitter e-mails are removed a set
 * number of days after review by a sweep at start and every hour.
 */
import { randomBytes } from 'node:crypto';
import { SubmissionSchema, type Submission } from '../../src/schemas/submission.ts';
import type { Logger } from '../ops/log.ts';
import type { StatusFilter, SubmissionRecord, SubmissionStore } from './store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** DESIGN: the same company and link within a day is the same submission. */
const DUPLICATE_WINDOW_MS = DAY_MS;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface DeskOptions {
  /** SUBMISSIONS_MAX_PENDING: beyond this many waiting, new submissions are refused (503). */
  maxPending: number;
  /** SUBMISSION_EMAIL_RETENTION_DAYS: submitter e-mails go this long after review. */
  emailRetentionDays: number;
  /** The time now (the wiring passes `deps.clock`, which tests may move). */
  now: () => Date;
  log: Logger;
}

/** The pending queue is at its cap: the submission was not stored. */
export class SubmissionsFullError extends Error {
  readonly maxPending: number;
  constructor(maxPending: number) {
    super(`the review queue is full (${maxPending} pending)`);
    this.name = 'SubmissionsFullError';
    this.maxPending = maxPending;
  }
}

export class SubmissionDesk {
  readonly store: SubmissionStore;
  private readonly options: DeskOptions;
  private timer: NodeJS.Timeout | undefined;

  constructor(store: SubmissionStore, options: DeskOptions) {
    this.store = store;
    this.options = options;
  }

  /**
   * Store a submission (durably) or find the same one from the last day.
   * @throws SubmissionsFullError when the pending queue is full; SubmissionStoreUnavailableError
   */
  async submit(submission: Submission, now: Date): Promise<{ id: string; duplicate: boolean }> {
    const id = `sub-${randomBytes(8).toString('hex')}`;
    // Only the submission's own fields are kept: a submitter cannot set id, status or dates.
    const fields = Object.fromEntries(
      Object.keys(SubmissionSchema.shape)
        .filter((k) => k in submission)
        .map((k) => [k, submission[k as keyof Submission]]),
    );
    const record = { id, status: 'pending', submittedAt: now.toISOString(), ...fields } as SubmissionRecord;
    const { maxPending } = this.options;
    const answer = await this.store.put(record, { duplicateSince: new Date(now.getTime() - DUPLICATE_WINDOW_MS), maxPending });
    if (answer.outcome === 'duplicate') return { id: answer.id, duplicate: true };
    if (answer.outcome === 'full') {
      this.options.log.warn('submissions_full', { maxPending });
      throw new SubmissionsFullError(maxPending);
    }
    // `exists` would be a collision of 64 random bits: not worth a retry path.
    if (answer.outcome !== 'stored') throw new Error(`submission id ${id} already taken`);
    return { id, duplicate: false };
  }

  /** One page of submissions in `status`, newest first, and how many there are. */
  async list(status: StatusFilter, page: { limit: number; offset: number }): Promise<{ submissions: SubmissionRecord[]; total: number }> {
    const { records, total } = await this.store.list(status, page);
    return { submissions: records, total };
  }

  /** One stored submission by id. */
  read(id: string): Promise<SubmissionRecord | undefined> {
    return this.store.get(id);
  }

  /** Record a review (archives it); false when it was no longer pending. */
  review(reviewed: SubmissionRecord): Promise<boolean> {
    return this.store.update(reviewed);
  }

  /** Remove submitter e-mails of submissions reviewed more than the retention ago; resolves with how many. */
  async sweep(): Promise<number> {
    const now = this.options.now();
    const reviewedBefore = new Date(now.getTime() - this.options.emailRetentionDays * DAY_MS);
    const count = await this.store.forgetEmails(reviewedBefore, now);
    if (count > 0) this.options.log.info('submission_emails_removed', { count, reviewedBefore: reviewedBefore.toISOString() });
    return count;
  }

  /** Remove one submission's e-mail now: the notice of its review was its last use (docs/notifications.md). */
  forgetEmail(id: string): Promise<boolean> {
    return this.store.forgetEmail(id, this.options.now());
  }

  /** Sweep now and every hour (the timer never keeps the process alive); failures are logged and retried next time. */
  start(): Promise<void> {
    const sweep = () =>
      this.sweep().then(
        () => undefined,
        (error: unknown) => this.options.log.error('submission_sweep_failed', { error: String((error as Error).cause ?? error) }),
      );
    this.timer ??= setInterval(() => void sweep(), SWEEP_EVERY_MS).unref();
    return sweep();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.store.close();
  }
}
