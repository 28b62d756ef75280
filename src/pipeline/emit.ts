/**
 * Stage 5: write the prebuilt indexes to `generated/`. Output is byte-stable for the same
 * content (no timestamps), so ETags and diffs stay meaningful.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CatalogData } from '../catalog/catalog.ts';
import { dealStats } from '../catalog/deals-query.ts';
import { noDrafts } from '../catalog/drafts.ts';
import type { Scope } from '../schemas/category.ts';
import { contentJsonSchemas } from '../schemas/json-schemas.ts';
import type { BuiltCatalog } from './build.ts';
import { catalogWithSpans, type RecordSpans } from '../catalog/record-spans.ts';

export const CATALOG_FILE = 'catalog.json';
export const SEARCH_INDEX_FILE = 'search-index.json';
export const SEARCH_POSTINGS_FILE = 'search-postings.json';
export const STATS_FILE = 'stats.json';
/** Drafts (catalog/drafts.ts), apart from `catalog.json`, which the site's pages read: for the admin only. */
export const DRAFTS_FILE = 'drafts.json';
/** Where each record's JSON lies in `catalog.json` (catalog/record-spans.ts), so the server reuses those bytes. */
export const RECORD_SPANS_FILE = 'record-spans.json';

/** Write catalog, drafts, search indexes and stats; each file appears whole (temp file, then rename). */
export async function emitCatalog(outDir: string, built: BuiltCatalog): Promise<void> {
  const { drafts = noDrafts(), ...data } = built.data;
  await mkdir(outDir, { recursive: true });
  // One file after the other, each text let go once written: at 150,000 records the catalog is
  // about 120 MB of JSON, lunr's index 200 MB (written piece by piece) and the postings 80 MB.
  const spans = await writeCatalog(join(outDir, CATALOG_FILE), data);
  await writeWhole(join(outDir, SEARCH_INDEX_FILE), ['{"deals":', built.lunr.deals, ',"startups":', built.lunr.startups, '}']);
  await writeWhole(join(outDir, SEARCH_POSTINGS_FILE), JSON.stringify(built.postings));
  await writeWhole(join(outDir, DRAFTS_FILE), JSON.stringify(drafts));
  await writeWhole(join(outDir, STATS_FILE), JSON.stringify(precomputedStats(data), null, 2));
  // The spans go last: a reader that finds them with another version's catalog ignores them.
  await writeWhole(join(outDir, RECORD_SPANS_FILE), JSON.stringify(spans));
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

// --- internal ---

/** `catalog.json`, and where each record lies in it. */
async function writeCatalog(path: string, data: Omit<CatalogData, 'drafts'>): Promise<RecordSpans> {
  const { text, spans } = catalogWithSpans(data);
  await writeWhole(path, text);
  return spans;
}

async function writeWhole(path: string, text: string | readonly string[]): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
}

/** Write the JSON Schema of every content type to `<outDir>/schemas/` (for editors). */
export async function emitJsonSchemas(outDir: string): Promise<string[]> {
  const dir = join(outDir, 'schemas');
  await mkdir(dir, { recursive: true });
  const schemas = Object.entries(contentJsonSchemas());
  await Promise.all(schemas.map(([name, schema]) => writeWhole(join(dir, name), `${JSON.stringify(schema, null, 2)}\n`)));
  return schemas.map(([name]) => join(dir, name));
}
