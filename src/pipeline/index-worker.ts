/**
 * The worker thread of index-in-worker.ts: builds the index it was started with and sends its
 * parts back, the typed arrays transferred.
 */
import { workerData } from 'node:worker_threads';
import type { IndexJob } from './index-in-worker.ts';
import { buildIndex } from './search-index.ts';

const { fields, ids, texts, port } = workerData as IndexJob;
const parts = buildIndex(
  fields,
  ids.map((id, at) => ({ id, at })),
  // Each record's texts are read once; let go of them as they are, not all at the end.
  ({ at }) => {
    const own = texts[at] ?? [];
    texts[at] = [];
    return own;
  },
);
const { starts, docs, weights } = parts.postings;
// Each array was made with its own ArrayBuffer (never a shared one) by buildIndex.
port.postMessage(
  parts,
  [starts, docs, weights, parts.termIndexes].map((array) => array.buffer as ArrayBuffer),
);
