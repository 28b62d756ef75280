/**
 * One index's lunr JSON written in a worker thread. Writing `search-index.json` made both
 * indexes' JSON one after the other on the main thread, the other core idle: about 5 s of a
 * 50,000-deal / 100,000-startup build (docs/performance.md, sixteenth sitting). The deals' part
 * is now written by a worker while the main thread makes the startups'.
 */
import { Worker } from 'node:worker_threads';
import type { PostingsLayout } from '../catalog/search.ts';

/** What the worker is started with (copied to it: the build still writes these postings after). */
export interface LunrJsonJob {
  /** The file to write: `prefix`, then the index's lunr JSON. */
  path: string;
  prefix: string;
  postings: PostingsLayout;
  termIndexes: Int32Array;
}

/** As for the other build workers (index-in-worker.ts): a small young generation. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * Write `prefix` and the lunr JSON of `postings` to `path` in a worker thread; resolves once the
 * file is written and the worker gone.
 * @example await writeLunrJsonInWorker({ path: 'search-index.json.tmp', prefix: '{"deals":', postings, termIndexes })
 */
export function writeLunrJsonInWorker(job: LunrJsonJob): Promise<void> {
  const worker = new Worker(new URL('./lunr-json-worker.ts', import.meta.url), { workerData: job, resourceLimits: WORKER_LIMITS });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the lunr JSON worker stopped (exit code ${code})`))));
  });
}
