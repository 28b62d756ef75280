/**
 * The worker thread of lunr-json-in-worker.ts: writes the start of `search-index.json` (its
 * `prefix`, then one index's lunr JSON) to the file it was given, and exits.
 */
import { writeFile } from 'node:fs/promises';
import { workerData } from 'node:worker_threads';
import type { LunrJsonJob } from './lunr-json-in-worker.ts';
import { lunrJsonChunks } from './search-index.ts';

const { path, prefix, postings, termIndexes } = workerData as LunrJsonJob;
await writeFile(
  path,
  (function* () {
    yield Buffer.from(prefix);
    yield* lunrJsonChunks(postings, termIndexes);
  })(),
);
