/**
 * Records after some of their files changed on disk, for an incremental change of deals or
 * startups: each changed file's text goes the same parse → validate path as a build, and the
 * cross-file rule is checked against the rest (a changed record's id must not be another's;
 * slugs are unique already: they name the files).
 */
import { createHash } from 'node:crypto';
import { hasErrors, shown, type Diagnostic, type StageResult } from './diagnostics.ts';
import { parseEntry, type ParsedEntry } from './parse.ts';
import type { Located } from './validate.ts';

/** One file's text, by the slug its name gives. */
export interface ChangedFile {
  slug: string;
  text: string;
}

export interface ChangedRecords<T> {
  /** Every record after the change, by slug (in the order of the records before, changed ones last). */
  records: Map<string, T>;
  changed: T[];
  /** Ids of the records dropped (gone, or replaced by a changed one). */
  removedIds: string[];
  /** The catalog version after the change, from the version before it and what changed. */
  version: string;
}

/**
 * @param removals slugs whose record is dropped first: files that went, and those that changed (a changed id is then no duplicate)
 * @param pathOf a record's file inside the content root, by slug (`deals/<slug>.md`)
 * @param validate the build's validation of one parsed file
 * @example withChangedFiles(deals, [{ slug, text }], [slug], version, dealPath, (e) => validateDeals([e], categories, today))
 */
export function withChangedFiles<T extends { id: string; slug: string }>(
  current: ReadonlyMap<string, T>,
  files: readonly ChangedFile[],
  removals: readonly string[],
  previousVersion: string,
  pathOf: (slug: string) => string,
  validate: (entry: ParsedEntry) => StageResult<Located<T>[]>,
): StageResult<ChangedRecords<T> | undefined> {
  const records = new Map(current);
  for (const slug of removals) records.delete(slug);
  const diagnostics: Diagnostic[] = [];
  const changed: T[] = [];
  for (const file of files) {
    const parsed = parseEntry({ path: `content/${pathOf(file.slug)}`, text: file.text });
    diagnostics.push(...parsed.diagnostics);
    if (!parsed.value) continue;
    const checked = validate(parsed.value);
    diagnostics.push(...checked.diagnostics.filter((d) => d.severity === 'error'));
    const record = checked.value[0]?.record;
    if (record) {
      records.set(record.slug, record);
      changed.push(record);
    }
  }
  diagnostics.push(...duplicateIds(records, changed, pathOf));
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
  const removedIds = removals.map((slug) => current.get(slug)?.id).filter((id): id is string => id !== undefined);
  const version = createHash('sha256').update(JSON.stringify([previousVersion, changed, removedIds])).digest('hex').slice(0, 16);
  return { value: { records, changed, removedIds, version }, diagnostics: [] };
}

// --- internal ---

function duplicateIds<T extends { id: string; slug: string }>(records: ReadonlyMap<string, T>, changed: readonly T[], pathOf: (slug: string) => string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const slugsById = new Map<string, string[]>();
  for (const record of records.values()) slugsById.set(record.id, [...(slugsById.get(record.id) ?? []), record.slug]);
  for (const record of changed) {
    for (const otherSlug of slugsById.get(record.id) ?? []) {
      if (otherSlug !== record.slug) {
        diagnostics.push({ severity: 'error', code: 'duplicate_id', file: `content/${pathOf(record.slug)}`, field: 'id', message: `id ${shown(record.id)} is already used by ${shown(otherSlug)}` });
      }
    }
  }
  return diagnostics;
}
