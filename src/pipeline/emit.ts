/**
 * Stage 5: write the prebuilt indexes to `generated/`. Output is byte-stable for the same
 * content (no timestamps), so ETags and diffs stay meaningful.
 */
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CatalogData } from '../catalog/catalog.ts';
import { dealStats } from '../catalog/deals-query.ts';
import { noDrafts } from '../catalog/drafts.ts';
import type { Scope } from '../schemas/category.ts';
import { contentJsonSchemas } from '../schemas/json-schemas.ts';
import type { BuiltCatalog } from './build.ts';
import { catalogChunks, summariesOf, type RecordSpans } from '../catalog/record-spans.ts';
import { postingsFileChunks } from '../catalog/postings-file.ts';
import { writeLunrJsonInWorker } from './lunr-json-in-worker.ts';
import { lunrJsonChunks } from './search-index.ts';
import { CATALOG_FILE, DRAFTS_FILE, RECORD_SPANS_FILE, SEARCH_INDEX_FILE, SEARCH_POSTINGS_FILE, SEARCH_POSTINGS_JSON_FILE, STATS_FILE } from './generated-files.ts';

/** Write catalog, drafts, search indexes and stats; each file appears whole (temp file, then rename). */
export async function emitCatalog(outDir: string, built: BuiltCatalog): Promise<void> {
  const { drafts = noDrafts(), ...data } = built.data;
  await mkdir(outDir, { recursive: true });
  // In pieces: at 150,000 records the catalog is about 120 MB of JSON (written a MiB at a time),
  // lunr's index 200 MB (made from the postings as it is written) and the postings 77 MB (a MiB
  // of numbers at a time). The catalog and lunr's index are written at once: a big catalog's
  // deals' part of the index is made by a worker thread meanwhile (`writeSearchIndex`).
  const spans: RecordSpans = { version: data.version, deals: [], startups: [] };
  await allDone([writeWhole(join(outDir, CATALOG_FILE), catalogChunks(data, spans)), writeSearchIndex(join(outDir, SEARCH_INDEX_FILE), built)]);
  await writeWhole(join(outDir, SEARCH_POSTINGS_FILE), postingsFileChunks(built.postings));
  // An older build's JSON postings would be stale beside the new file.
  await rm(join(outDir, SEARCH_POSTINGS_JSON_FILE), { force: true });
  await writeWhole(join(outDir, DRAFTS_FILE), JSON.stringify(drafts));
  await writeWhole(join(outDir, STATS_FILE), JSON.stringify(precomputedStats(data), null, 2));
  // The spans go last: a reader that finds them with another version's catalog ignores them.
  await writeWhole(join(outDir, RECORD_SPANS_FILE), JSON.stringify({ ...spans, summaries: summariesOf(data) }));
}

/** Stats per scope for the default status filter and for `status=all`, for pages and reports. */
export function precomputedStats(data: CatalogData) {
  const scopeOf = new Map(data.categories.deals.map((c) => [c.slug, c.scope]));
  const inScope = (scope: Scope | 'all') => data.deals.filter((d) => scope === 'all' || scopeOf.get(d.category) === scope);
  const scopes = ['deals', 'programs', 'all'] as const;
  return {
    version: data.version,
    startups: data.startups.length,
    defaultStatus: Object.fromEntries(
      scopes.map((s) => [
        s,
        dealStats(
          inScope(s).filter((d) => d.status !== 'expired'),
          s,
        ),
      ]),
    ),
    allStatuses: Object.fromEntries(scopes.map((s) => [s, dealStats(inScope(s), s)])),
  };
}

/**
 * Deals' postings from which their lunr JSON is made in a worker thread (lunr-json-in-worker.ts)
 * while this thread makes the startups': the synthetic catalogs have about 340,000 at 5,000 deals
 * and 3.4 million at 50,000. Below, starting the worker would cost more than it saves.
 */
const LUNR_WORKER_FROM_POSTINGS = 1_000_000;

/**
 * `search-index.json`: both lunr indexes, each made as it is written. A big catalog's two are
 * made at once: the deals' by a worker into the file itself, the startups' here into a file of
 * their own, copied after the deals' (90 MB at 100,000 startups; the same bytes as one after the
 * other, which tests/integration/pipeline-workers.test.ts compares).
 */
export async function writeSearchIndex(path: string, built: Pick<BuiltCatalog, 'postings' | 'termIndexes'>, inWorker = built.postings.deals.docs.length >= LUNR_WORKER_FROM_POSTINGS): Promise<void> {
  const { postings, termIndexes } = built;
  if (!inWorker) {
    return writeWhole(
      path,
      (function* () {
        yield '{"deals":';
        yield* lunrJsonChunks(postings.deals, termIndexes.deals);
        yield ',"startups":';
        yield* lunrJsonChunks(postings.startups, termIndexes.startups);
        yield '}';
      })(),
    );
  }
  const temp = `${path}.${process.pid}.tmp`;
  const startupsTemp = `${path}.startups.${process.pid}.tmp`;
  try {
    await allDone([
      writeLunrJsonInWorker({ path: temp, prefix: '{"deals":', postings: postings.deals, termIndexes: termIndexes.deals }),
      writeFile(startupsTemp, lunrJsonChunks(postings.startups, termIndexes.startups)),
    ]);
    await appendFile(
      temp,
      (async function* () {
        yield ',"startups":';
        yield* createReadStream(startupsTemp, { highWaterMark: 1024 * 1024 });
        yield '}';
      })(),
    );
    await rename(temp, path);
  } finally {
    await Promise.all([rm(startupsTemp, { force: true }), rm(temp, { force: true })]);
  }
}

/** Write the JSON Schema of every content type to `<outDir>/schemas/` (for editors). */
export async function emitJsonSchemas(outDir: string): Promise<string[]> {
  const dir = join(outDir, 'schemas');
  await mkdir(dir, { recursive: true });
  const schemas = Object.entries(contentJsonSchemas());
  await Promise.all(schemas.map(([name, schema]) => writeWhole(join(dir, name), `${JSON.stringify(schema, null, 2)}\n`)));
  return schemas.map(([name]) => join(dir, name));
}

// --- internal ---

/**
 * Every write finished, then the first failure thrown, if any: a write still under way when
 * another fails would make its file again after the clean-up, or hold the build open.
 */
async function allDone(writes: readonly Promise<void>[]): Promise<void> {
  for (const write of await Promise.allSettled(writes)) if (write.status === 'rejected') throw write.reason;
}

/** Write a file whole: a temp file, then rename; `text` may come in pieces, each written as it comes. */
async function writeWhole(path: string, text: string | Iterable<string | Uint8Array>): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
}
