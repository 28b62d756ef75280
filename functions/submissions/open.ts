/**
 * Choose the submission store engine from the configuration: PostgreSQL when `DATABASE_URL`
 * is set (several instances, or serverless functions, share it), otherwise the files under
 * `DATA_DIR/submissions/`, except where there is no durable disk of one's own (a serverless
 * function): there submissions are refused (503) rather than written where they would be lost.
 */
import { join } from 'node:path';
import { contentRemoteOf, type Config } from '../config.ts';
import type { Logger } from '../ops/log.ts';
import { FileSubmissionStore } from './file-store.ts';
import { PostgresSubmissionStore } from './postgres-store.ts';
import { SubmissionStoreUnavailableError, type SubmissionStore } from './store.ts';

/**
 * @param localDisk whether `DATA_DIR` is this process's own durable disk (false on serverless platforms)
 * @example const store = openSubmissionStore(loadConfig(), createLogger())
 */
export function openSubmissionStore(config: Config, log: Logger, { localDisk = true } = {}): SubmissionStore {
  if (contentRemoteOf(config) && !config.databaseUrl) {
    // A remote means several instances: each would keep (and list) only the submissions it took.
    log.warn('submissions_not_shared', { hint: 'set DATABASE_URL so every instance sees every submission (docs/submissions.md)' });
  }
  if (config.databaseUrl) return new PostgresSubmissionStore(config.databaseUrl, (problem) => log.warn('submission_database_connection_lost', { problem }));
  if (!localDisk) return new NoSubmissionStore();
  return new FileSubmissionStore(join(config.dataDir, 'submissions'), (file, problem) => log.warn('submission_record_unreadable', { file, problem }));
}

// --- internal ---

/** Where nothing can be stored durably: every call is refused as unavailable. */
class NoSubmissionStore implements SubmissionStore {
  put = refuse;
  get = refuse;
  list = refuse;
  update = refuse;
  forgetEmails = refuse;
  forgetEmail = refuse;
  countPending = refuse;
  close = (): Promise<void> => Promise.resolve();
}

function refuse(): Promise<never> {
  return Promise.reject(new SubmissionStoreUnavailableError('no durable store here: set DATABASE_URL to store submissions (docs/submissions.md)'));
}
