/**
 * The startups after startup files changed on disk, as `ContentSnapshot.withDealFiles` does it
 * for deals (changed-files.ts): each changed file goes the build's parse → validate path,
 * cross-file rules are checked against the rest, and only the changed records are handed on
 * for the search index. Deals, categories and the site stay as they are.
 */
import { compareStartups } from '../catalog/order.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import type { Startup } from '../schemas/startup.ts';
import type { StageResult } from './diagnostics.ts';
import { withChangedFiles, type ChangedFile } from './changed-files.ts';
import { validateStartups } from './validate.ts';

export interface ChangedStartups {
  /** The catalog version after the change (from the version before it and what changed). */
  version: string;
  /** Every startup, in default order. */
  startups: Startup[];
  changed: Startup[];
  removedIds: string[];
}

/**
 * @param current the catalog's version, categories and startups before the change
 * @param removals slugs whose file went
 * @example withStartupFiles(catalog, [{ slug: 'shop', text }], []).value?.startups
 */
export function withStartupFiles(
  current: { version: string; categories: CategoriesFile; startups: readonly Startup[] },
  files: readonly ChangedFile[],
  removals: readonly string[],
): StageResult<ChangedStartups | undefined> {
  const bySlug = new Map(current.startups.map((s) => [s.slug, s]));
  // A file that changed keeps its slug: its old record goes first, so a changed id is no duplicate.
  const dropped = [...removals, ...files.map((f) => f.slug)];
  const next = withChangedFiles(bySlug, files, dropped, current.version, startupPath, (entry) => validateStartups([entry], current.categories));
  if (!next.value) return { value: undefined, diagnostics: next.diagnostics };
  const { records, changed, removedIds, version } = next.value;
  return { value: { version, startups: [...records.values()].sort(compareStartups), changed, removedIds }, diagnostics: [] };
}

// --- internal ---

const startupPath = (slug: string): string => `startups/${slug}.md`;
