/**
 * The catalog after content files changed on disk, from the catalog served now: changed deal
 * files, or changed startup files, are re-read and re-indexed alone (the search index is
 * patched, not rebuilt; the other kind is kept as it is); any other change (categories, site,
 * synonyms, both kinds at once), or changes not known file by file, rebuild the catalog from
 * the whole tree through the build's own pipeline.
 */
import { isDeepStrictEqual } from 'node:util';
import { createCatalog, withChangedDeals, withChangedStartups, type Catalog } from '../../src/catalog/catalog.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { STARTUP_FILES } from '../../src/pipeline/record-files.ts';
import type { Diagnostic } from '../../src/pipeline/diagnostics.ts';
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
  if (paths?.every((path) => DEAL_FILE.test(path))) return withDealFiles(current, await readChanged(paths, options.store), options.today);
  if (paths?.every((path) => STARTUP_FILE.test(path))) return withStartupFiles(current, await readChanged(paths, options.store), options.today);
  return rebuilt(current, options);
}

// --- internal ---

const DEAL_FILE = /^deals\/[^/]+\.md$/;
const STARTUP_FILE = /^startups\/[^/]+\.md$/;

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

/** A save that changes nothing (or an admin write's own file, seen again by a watcher) keeps the catalog and its answers. */
function unchanged<T extends { slug: string }>(changed: readonly T[], removals: readonly string[], current: ReadonlyMap<string, T>): boolean {
  return !removals.some((slug) => current.has(slug)) && changed.every((record) => isDeepStrictEqual(record, current.get(record.slug)));
}

function withDealFiles(current: Catalog, { files, removals }: Changed, today: string): NextCatalog {
  // A file that changed keeps its slug: drop the old record first so a changed id is no duplicate.
  const next = new ContentSnapshot(current).withDealFiles(files, [...removals, ...files.map((f) => f.slug)], today);
  if (!next.value) return { diagnostics: next.diagnostics };
  if (unchanged(next.value.changed, removals, current.dealBySlug)) return { catalog: current, diagnostics: [] };
  return { catalog: withChangedDeals(current, next.value.data, next.value.changed, next.value.removedIds), diagnostics: [] };
}

function withStartupFiles(current: Catalog, { files, removals }: Changed, today: string): NextCatalog {
  // As for deals: the old record of a changed file goes first.
  const next = new ContentSnapshot(current).withFiles(STARTUP_FILES, files, [...removals, ...files.map((f) => f.slug)], today);
  if (!next.value) return { diagnostics: next.diagnostics };
  if (unchanged(next.value.changed, removals, current.startupBySlug)) return { catalog: current, diagnostics: [] };
  return { catalog: withChangedStartups(current, next.value.data, next.value.changed, next.value.removedIds), diagnostics: [] };
}

async function rebuilt(current: Catalog, options: NextCatalogOptions): Promise<NextCatalog> {
  const built = runPipeline(await readContent(options.store.root), { today: options.today, baseUrl: options.baseUrl });
  if (!built.value) return { diagnostics: built.diagnostics.filter((d) => d.severity === 'error') };
  // The version hashes everything published: the same version is the same catalog.
  if (built.value.data.version === current.version) return { catalog: current, diagnostics: [] };
  return { catalog: createCatalog(built.value.data, built.value.postings), diagnostics: [] };
}
