/**
 * The answer when the submission store refused: 503 `service_unavailable` with `Retry-After`
 * (SPEC: "submission system temporarily unavailable"), for a full queue or a store that
 * cannot be reached. Anything else is not a refusal and is handed back as it was.
 */
import type { Logger } from '../ops/log.ts';
import { ApiError } from '../http/errors.ts';
import { SubmissionsFullError } from './desk.ts';
import { SubmissionStoreUnavailableError } from './store.ts';

/**
 * @example catch (error) { throw submissionRefusal(error, deps.log) }
 */
export function submissionRefusal(error: unknown, log: Logger): unknown {
  if (error instanceof SubmissionsFullError) {
    // The queue drains as admins review it: an hour is a fair wait, and nothing is lost by waiting.
    return new ApiError(503, 'service_unavailable', `The review queue is full: ${error.maxPending} submissions are waiting for review.`, {
      hint: 'Nothing was stored; send it again later.',
      headers: { 'Retry-After': '3600' },
    });
  }
  if (error instanceof SubmissionStoreUnavailableError) {
    log.error('submission_store_unavailable', { error: String(error.cause ?? error.message) });
    return new ApiError(503, 'service_unavailable', 'The submission store is unavailable right now.', {
      hint: 'Nothing was changed; try again in a minute.',
      headers: { 'Retry-After': '60' },
    });
  }
  return error;
}
