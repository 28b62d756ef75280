/**
 * The file engine of the submission store (the default, for one instance): one JSON file per
 * record under `DATA_DIR/submissions/`, `pending/<id>.json` while waiting and
 * `reviewed/<YYYY-MM of the review>/<id>.json` once reviewed (the archive, out of the way of
 * the pending queue). Every write is atomic and fsynced (store/durable-file.ts); writes run one
 * at a time, so the duplicate check and the cap hold. One process owns the folder: with
 * several instances, use PostgreSQL (docs/submissions.md).
 */
import { readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { syncPath, writeFileAtomic } from '../store/durable-file.ts';
import { WriteQueue } from '../store/write-queue.ts';
import { duplicateKey, SUBMISSION_ID, SubmissionStoreUnavailableError, type Admission, type PutOutcome, type StatusFilter, type SubmissionRecord, type SubmissionStore } from './store.ts';
import { ifMissing } from '../../src/missing-file.ts';

/** What the index keeps of each record: enough to filter, order, count and find it. */
interface Entry {
  id: string;
  status: SubmissionRecord['status'];
  submittedAt: string;
  reviewedAt: string | undefined;
  key: string;
  hasEmail: boolean;
  file: string;
}

export class FileSubmissionStore implements SubmissionStore {
  private readonly root: string;
  private readonly warn: (file: string, problem: string) => void;
  private readonly queue = new WriteQueue();
  private index: Map<string, Entry> | undefined;

  /**
   * @param root the store's folder, `DATA_DIR/submissions`
   * @param warn told about a record file that cannot be read (it is skipped, not fatal)
   */
  constructor(root: string, warn: (file: string, problem: string) => void = () => undefined) {
    this.root = root;
    this.warn = warn;
  }

  put(record: SubmissionRecord, admission?: Admission): Promise<PutOutcome> {
    return this.exclusive(async (index) => {
      if (index.has(record.id)) return { outcome: 'exists' };
      const key = duplicateKey(record);
      if (admission) {
        const since = admission.duplicateSince.toISOString();
        let earlier: Entry | undefined;
        for (const entry of index.values()) if (entry.key === key && entry.submittedAt > since && (!earlier || entry.submittedAt > earlier.submittedAt)) earlier = entry;
        if (earlier) return { outcome: 'duplicate', id: earlier.id };
        if (countPending(index) >= admission.maxPending) return { outcome: 'full' };
      }
      const file = this.fileOf(record);
      await writeFileAtomic(file, json(record));
      index.set(record.id, entryOf(record, file));
      return { outcome: 'stored' };
    });
  }

  get(id: string): Promise<SubmissionRecord | undefined> {
    return this.exclusive(async (index) => {
      const entry = index.get(id);
      return entry ? readRecord(entry.file) : undefined;
    });
  }

  list(status: StatusFilter, page: { limit: number; offset: number }): Promise<{ records: SubmissionRecord[]; total: number }> {
    return this.exclusive(async (index) => {
      const matching = [...index.values()].filter((e) => status === 'all' || e.status === status).sort(newestFirst);
      const records = await Promise.all(matching.slice(page.offset, page.offset + page.limit).map((e) => readRecord(e.file)));
      return { records, total: matching.length };
    });
  }

  update(reviewed: SubmissionRecord): Promise<boolean> {
    return this.exclusive(async (index) => {
      const entry = index.get(reviewed.id);
      if (!entry || entry.status !== 'pending') return false;
      // The archived copy first: should the process die before the pending one goes, the next
      // load finds both and keeps this one (`load`).
      const file = this.fileOf(reviewed);
      await writeFileAtomic(file, json(reviewed));
      index.set(reviewed.id, entryOf(reviewed, file));
      // Best effort: a pending copy left behind is removed by the next load.
      await unlink(entry.file)
        .then(() => syncPath(join(this.root, 'pending')))
        .catch(() => undefined);
      return true;
    });
  }

  forgetEmails(reviewedBefore: Date, now: Date): Promise<number> {
    return this.exclusive(async (index) => {
      const cutoff = reviewedBefore.toISOString();
      let count = 0;
      for (const entry of index.values()) {
        if (entry.status === 'pending' || !entry.hasEmail || !entry.reviewedAt || entry.reviewedAt >= cutoff) continue;
        await forgetEmailOf(entry, now);
        count += 1;
      }
      return count;
    });
  }

  forgetEmail(id: string, now: Date): Promise<boolean> {
    return this.exclusive(async (index) => {
      const entry = index.get(id);
      if (!entry?.hasEmail) return false;
      await forgetEmailOf(entry, now);
      return true;
    });
  }

  countPending(): Promise<number> {
    return this.exclusive((index) => Promise.resolve(countPending(index)));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  // --- internal ---

  /** Run `task` alone, with the index (loaded on first use); file-system failures become unavailability. */
  private exclusive<T>(task: (index: Map<string, Entry>) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      try {
        this.index ??= await this.load();
        return await task(this.index);
      } catch (error) {
        if (error instanceof SubmissionStoreUnavailableError) throw error;
        throw new SubmissionStoreUnavailableError('the submission store cannot be read or written', { cause: error });
      }
    });
  }

  private fileOf(record: SubmissionRecord): string {
    if (!SUBMISSION_ID.test(record.id)) throw new Error(`not a submission id: ${JSON.stringify(record.id)}`);
    if (record.status === 'pending') return join(this.root, 'pending', `${record.id}.json`);
    // DESIGN: reviewed ones are archived by month of review, out of the pending folder.
    return join(this.root, 'reviewed', (record.reviewedAt ?? record.submittedAt).slice(0, 7), `${record.id}.json`);
  }

  /**
   * Read every record's summary. A record in both folders is a review the process did not live
   * to finish: the archived copy wins and the pending one goes. Temp files of killed writes go.
   */
  private async load(): Promise<Map<string, Entry>> {
    const index = new Map<string, Entry>();
    const pending = join(this.root, 'pending');
    const reviewed = join(this.root, 'reviewed');
    const months = (await names(reviewed)).filter((m) => /^\d{4}-\d{2}$/.test(m));
    for (const folder of [...months.map((m) => join(reviewed, m)), pending]) {
      for (const name of await names(folder)) {
        const file = join(folder, name);
        if (name.startsWith('.') && name.endsWith('.tmp')) {
          await rm(file, { force: true });
          continue;
        }
        if (!name.endsWith('.json')) continue;
        let record: SubmissionRecord;
        try {
          record = await readRecord(file);
          if (!SUBMISSION_ID.test(record.id) || `${record.id}.json` !== name) throw new Error('the id does not match the file name');
        } catch (error) {
          this.warn(file, (error as Error).message);
          continue;
        }
        if (folder === pending && index.has(record.id)) await unlink(file);
        else index.set(record.id, entryOf(record, file));
      }
    }
    return index;
  }
}

// --- internal ---

function entryOf(record: SubmissionRecord, file: string): Entry {
  return { id: record.id, status: record.status, submittedAt: record.submittedAt, reviewedAt: record.reviewedAt, key: duplicateKey(record), hasEmail: record.submitter_email !== undefined, file };
}

/** Rewrite a record without its e-mail (atomically: no copy of the address stays behind). */
async function forgetEmailOf(entry: Entry, now: Date): Promise<void> {
  const { submitter_email: _removed, ...kept } = await readRecord(entry.file);
  await writeFileAtomic(entry.file, json({ ...kept, emailRemovedAt: now.toISOString() }));
  entry.hasEmail = false;
}

async function readRecord(file: string): Promise<SubmissionRecord> {
  return JSON.parse(await readFile(file, 'utf8')) as SubmissionRecord;
}

const json = (record: SubmissionRecord): string => `${JSON.stringify(record, null, 2)}\n`;

function countPending(index: Map<string, Entry>): number {
  let count = 0;
  for (const entry of index.values()) if (entry.status === 'pending') count += 1;
  return count;
}

/** Newest submitted first; the id breaks ties so pages never overlap. */
function newestFirst(a: Entry, b: Entry): number {
  return b.submittedAt.localeCompare(a.submittedAt) || b.id.localeCompare(a.id);
}

/** Names in a folder; none when it does not exist yet. */
async function names(folder: string): Promise<string[]> {
  return readdir(folder).catch(ifMissing<string[]>([]));
}
