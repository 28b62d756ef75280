/**
 * The catalog after content files changed on disk, from the catalog served now: changed deal
 * files, or changed startup files, are re-read and re-indexed alone (the search index is
 * patched, not rebuilt; the other kind is kept as it is); any other change (categories, site,
 * synonyms, both kinds at once), or changes not known file by file, rebuild the catalog from
 * the whole tree through the build's own pipeline.
 */
import { isDeepStrictEqual } from 'node:util';
import { createCatalog, type Catalog } from '../../src/catalog/catalog.ts';
import { noDrafts } from '../../src/catalog/drafts.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import type { ContentRecord } from '../../src/pipeline/record-files.ts';
import type { Diagnostic } from '../../src/pipeline/diagnostics.ts';
import { DEALS, STARTUPS, type RecordKind } from '../writes/record-kinds.ts';
import type { ContentStore } from './content-store.ts';

export interface NextCatalog {
  /** The catalog to serve; the current one itself when the files say what it already says. Absent when the content does not build. */
  catalog?: Catalog;
  /** Why it does not build (errors only). */
  diagnostics: Diagnostic[];
}

export interface NextCatalogOptions {
  store: Pick<ContentStore, 'read' | 'root'>;
  today: string;
  /** The site's address when site.yaml names none. */
  baseUrl: string;
}

/**
 * @param paths changed paths relative to the content root, or `undefined` to rebuild from the whole tree
 * @example await nextCatalog(current, ['deals/acme.md'], { store, today: '2026-11-21', baseUrl })
 */
export async function nextCatalog(current: Catalog, paths: readonly string[] | undefined, options: NextCatalogOptions): Promise<NextCatalog> {
  if (paths?.every((path) => DEAL_FILE.test(path))) return withRecordFiles(current, DEALS, await readChanged(paths, options.store), options.today);
  if (paths?.every((path) => STARTUP_FILE.test(path))) return withRecordFiles(current, STARTUPS, await readChanged(paths, options.store), options.today);
  return rebuilt(current, options);
}

// --- internal ---

// Names the store reads (content-store.ts assertSafePath); any other name (a space in it) takes
// the whole build, which reports it as a bad file name instead of failing the read.
const DEAL_FILE = /^deals\/[A-Za-z0-9][A-Za-z0-9._-]*\.md$/;
const STARTUP_FILE = /^startups\/[A-Za-z0-9][A-Za-z0-9._-]*\.md$/;

/** Files of one folder by slug: the texts of those there, the slugs of those gone. */
interface Changed {
  files: { slug: string; text: string }[];
  removals: string[];
}

async function readChanged(paths: readonly string[], store: NextCatalogOptions['store']): Promise<Changed> {
  const changed: Changed = { files: [], removals: [] };
  for (const path of paths) {
    const slug = path.slice(path.indexOf('/') + 1, -'.md'.length);
    const text = await store.read(path);
    if (text === undefined) changed.removals.push(slug);
    else changed.files.push({ slug, text });
  }
  return changed;
}

/**
 * The catalog with one kind's changed files re-read. A file with `draft: true` stays out of
 * the public records (ContentSnapshot keeps drafts apart as a build does); a save that changes
 * nothing (or an admin write's own file, seen again by a watcher) keeps the catalog and its answers.
 */
function withRecordFiles<T extends ContentRecord>(current: Catalog, kind: RecordKind<T>, { files, removals }: Changed, today: string): NextCatalog {
  // A file that changed keeps its slug: drop the old record first so a changed id is no duplicate.
  const next = new ContentSnapshot(current).withFiles(kind.files, files, [...removals, ...files.map((f) => f.slug)], today);
  if (!next.value) return { diagnostics: next.diagnostics };
  // Drafts included: an edit of a draft changes what the admin sees.
  const stored = kind.bySlug(current);
  const unchanged = !removals.some((slug) => stored.has(slug)) && next.value.changed.every((record) => isDeepStrictEqual(record, stored.get(record.slug)));
  if (unchanged) return { catalog: current, diagnostics: [] };
  return { catalog: kind.nextCatalog(current, next.value), diagnostics: [] };
}

async function rebuilt(current: Catalog, options: NextCatalogOptions): Promise<NextCatalog> {
  const built = runPipeline(await readContent(options.store.root), { today: options.today, baseUrl: options.baseUrl });
  if (!built.value) return { diagnostics: built.diagnostics.filter((d) => d.severity === 'error') };
  // The version hashes everything published: the same version and drafts are the same catalog.
  const { version, drafts } = built.value.data;
  if (version === current.version && isDeepStrictEqual(drafts, current.drafts ?? noDrafts())) return { catalog: current, diagnostics: [] };
  return { catalog: createCatalog(built.value.data, built.value.postings), diagnostics: [] };
}
