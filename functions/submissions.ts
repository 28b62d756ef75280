/**
 * The submission desk: accepts deal submissions into `content/submissions/` (never
 * published), one commit each, with duplicate detection (same company and link within a day
 * answers the existing id).
 */
import { randomBytes } from 'node:crypto';
import { parseEntry } from '../src/pipeline/parse.ts';
import { toMarkdown } from '../src/pipeline/serialize.ts';
import { SubmissionSchema, type Submission } from '../src/schemas/submission.ts';
import type { ContentStore } from './store/content-store.ts';

export const SUBMISSIONS_FOLDER = 'submissions';
const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A stored submission: the submitted fields plus review state. */
export interface SubmissionRecord extends Submission {
  id: string;
  status: 'pending' | 'approved' | 'rejected';
  submittedAt: string;
  reviewedAt?: string;
  reviewedBy?: string;
  rejectionReason?: string;
  dealId?: string;
}

export class SubmissionDesk {
  private readonly store: ContentStore;
  private recent: Map<string, { id: string; at: number }> | undefined;

  constructor(store: ContentStore) {
    this.store = store;
  }

  /**
   * Record a submission (one commit), or find the same one from the last day.
   * @returns the submission id, and whether it already existed
   */
  async submit(submission: Submission, now: Date): Promise<{ id: string; duplicate: boolean; integrated?: boolean }> {
    const recent = await this.recentSubmissions();
    const key = duplicateKey(submission);
    const existing = recent.get(key);
    if (existing && now.getTime() - existing.at < DUPLICATE_WINDOW_MS) return { id: existing.id, duplicate: true };

    const id = `sub-${randomBytes(8).toString('hex')}`;
    // Only the submission's own fields are kept: a submitter cannot set id, status or dates.
    const fields = Object.fromEntries(Object.keys(SubmissionSchema.shape).filter((k) => k in submission).map((k) => [k, submission[k as keyof Submission]]));
    const record = { id, status: 'pending', submittedAt: now.toISOString(), ...fields } as SubmissionRecord;
    const { integrated } = await this.store.commit([{ path: `${SUBMISSIONS_FOLDER}/${id}.md`, text: toMarkdown({ ...record }, '') }], {
      message: `Submission ${id}: ${submission.company_name}`,
      author: { name: 'Deal submission', email: submission.submitter_email ?? 'submissions@localhost' },
    });
    recent.set(key, { id, at: now.getTime() });
    return { id, duplicate: false, integrated };
  }

  /** Submissions arrived from another instance: rebuild the duplicate index on the next submit. */
  forget(): void {
    this.recent = undefined;
  }

  /** Every stored submission, newest first. */
  async list(): Promise<SubmissionRecord[]> {
    const names = (await this.store.list(SUBMISSIONS_FOLDER)).filter((n) => n.endsWith('.md'));
    const records = await Promise.all(names.map((name) => this.read(name.slice(0, -3))));
    return records.filter((r): r is SubmissionRecord => r !== undefined).sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
  }

  /** One stored submission by id. */
  async read(id: string): Promise<SubmissionRecord | undefined> {
    if (!/^sub-[a-f0-9]{16}$/.test(id)) return undefined;
    const text = await this.store.read(`${SUBMISSIONS_FOLDER}/${id}.md`);
    if (text === undefined) return undefined;
    return parseEntry({ path: `${SUBMISSIONS_FOLDER}/${id}.md`, text }).value?.data as SubmissionRecord | undefined;
  }

  // --- internal ---

  private async recentSubmissions(): Promise<Map<string, { id: string; at: number }>> {
    if (!this.recent) {
      const recent = new Map<string, { id: string; at: number }>();
      for (const record of await this.list()) {
        const key = duplicateKey(record);
        if (!recent.has(key)) recent.set(key, { id: record.id, at: Date.parse(record.submittedAt) });
      }
      this.recent = recent;
    }
    return this.recent;
  }
}

function duplicateKey(s: Pick<Submission, 'company_name' | 'redemption_link'>): string {
  const company = s.company_name.trim().toLowerCase().replace(/\s+/g, ' ');
  const link = s.redemption_link.trim().toLowerCase().replace(/\/+$/, '');
  return `${company}\n${link}`;
}
