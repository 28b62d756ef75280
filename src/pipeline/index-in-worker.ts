/**
 * One search index built in a worker thread, for the build of a big catalog: after the check
 * workers, the main thread derived the catalog and built both indexes while the other core
 * idled (at 150,000 records, 6.8 s of indexing after 2.8 s of deriving). The deals' index is now
 * made beside them (docs/performance.md, thirteenth sitting). The worker gets each record's id
 * and field texts, and sends back the postings' typed arrays without copying them.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { BuiltIndex } from './search-index.ts';

/** What the worker is started with. */
export interface IndexJob {
  fields: Record<string, number>;
  /** Each record's id, in index order. */
  ids: string[];
  /** Each record's texts, in the order of `fields`. */
  texts: string[][];
  port: MessagePort;
}

/**
 * A worker's young generation, as for the check workers (check-in-workers.ts): V8's default
 * lets a worker's heap fill with hundreds of MB of garbage beside the main thread's.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * `buildIndex(fields, records, texts)`, in a worker thread. The texts are taken now: the records
 * may change after the call.
 * @example const dealIndex = buildIndexInWorker(DEAL_FIELDS, deals, (deal) => dealFieldTexts(deal, categories))
 */
export async function buildIndexInWorker<T extends { id: string }>(fields: Record<string, number>, records: readonly T[], texts: (record: T) => string[]): Promise<BuiltIndex> {
  // Its own port: the worker's default channel also carries Node's messages under `--watch`.
  const { port1, port2 } = new MessageChannel();
  // The job is copied to the worker here, and no variable keeps this thread's copy alive.
  const worker = new Worker(new URL('./index-worker.ts', import.meta.url), {
    workerData: { fields, ids: records.map((record) => record.id), texts: records.map(texts), port: port2 } satisfies IndexJob,
    transferList: [port2],
    resourceLimits: WORKER_LIMITS,
  });
  try {
    return await new Promise<BuiltIndex>((resolve, reject) => {
      port1.once('message', resolve);
      port1.once('messageerror', reject);
      worker.once('error', reject);
      // The worker exits right after posting, and its exit can be seen before the message is:
      // a message still waiting on the port is the answer (a build of 5,000 deals and 10,000
      // startups failed every time without this).
      worker.once('exit', (code) => {
        const waiting = receiveMessageOnPort(port1);
        if (waiting) resolve(waiting.message as BuiltIndex);
        else reject(new Error(`the search index worker stopped (exit code ${code})`));
      });
    });
  } finally {
    port1.close();
    await worker.terminate();
  }
}
