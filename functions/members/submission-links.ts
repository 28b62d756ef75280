/**
 * Which submissions a member made while signed in (issue 18, item 5; migration 8): a link from
 * the account to the submission's id in the submission store (functions/submissions/), which
 * keeps the record and its review state. The company and website as submitted prefill the next
 * form. Links go with the account (`ON DELETE CASCADE`). The same SQL on SQLite and PostgreSQL.
 */
import type { Queries } from '../db/database.ts';

/** One submission of a member, as linked. */
export type SubmissionLink = {
  /** The submission's id in the submission store. */
  id: string;
  companyName: string;
  websiteUrl: string;
  submittedAt: string;
};

/** A member's submissions shown at most (the dashboard, newest first). */
export const SHOWN_SUBMISSIONS = 50;

export class SubmissionLinkStore {
  private readonly db: Queries;

  /** @param db the database, or a transaction of it (the data export reads inside one) */
  constructor(db: Queries) {
    this.db = db;
  }

  /** Link a submission to the account (a second link of the same one changes nothing). */
  async add(account: string, link: SubmissionLink): Promise<void> {
    await this.db.run(
      `INSERT INTO member_submissions (account, submission_id, company_name, website_url, submitted_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account, submission_id) DO NOTHING`,
      [account, link.id, link.companyName, link.websiteUrl, link.submittedAt],
    );
  }

  /** The account's submissions, newest first; at most `limit` of them, or all. */
  async list(account: string, limit?: number): Promise<SubmissionLink[]> {
    const rows = await this.db.all<{ submission_id: string; company_name: string; website_url: string; submitted_at: string }>(
      `SELECT submission_id, company_name, website_url, submitted_at FROM member_submissions WHERE account = $1 ORDER BY submitted_at DESC, submission_id DESC${limit === undefined ? '' : ' LIMIT $2'}`,
      limit === undefined ? [account] : [account, limit],
    );
    return rows.map((r) => ({ id: r.submission_id, companyName: r.company_name, websiteUrl: r.website_url, submittedAt: r.submitted_at }));
  }
}
