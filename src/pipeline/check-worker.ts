/**
 * A worker thread of check-in-workers.ts: checks each batch of files it is sent with the rule
 * context it was started with, and posts the answers back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkersFor, type Batch, type BatchAnswer } from './check-in-workers.ts';
import type { RuleContext } from './validate.ts';

const checkers = checkersFor(workerData as RuleContext);
parentPort?.on('message', ({ seq, kind, files }: Batch) => {
  const answer: BatchAnswer = { seq, kind, results: files.map(checkers[kind]) };
  parentPort?.postMessage(answer);
});
