/**
 * A worker thread of check-in-workers.ts: checks each batch of files that comes on its port
 * with the rule context it was started with, and answers on the same port.
 */
import { workerData } from 'node:worker_threads';
import { checkersFor, type Batch, type BatchAnswer, type WorkerData } from './check-in-workers.ts';

const { context, port } = workerData as WorkerData;
const checkers = checkersFor(context);
port.on('message', ({ seq, kind, files }: Batch) => {
  const answer: BatchAnswer = { seq, kind, results: files.map(checkers[kind]) };
  port.postMessage(answer);
});
