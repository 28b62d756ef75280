/**
 * The validated content behind a catalog, kept in memory so a write re-checks and re-indexes
 * only what it changes: changed records (deals or startups) go through the same serialise →
 * parse → validate path as a build (an updated record written into its existing file,
 * record-files.ts), cross-file rules are checked against the rest, and only that kind's index
 * is rebuilt (the other kind's is reused). Drafts are kept apart as a build keeps them
 * (catalog/drafts.ts): in `data.drafts`, never in the published records or the search index.
 */
import { createHash } from 'node:crypto';
import type { CatalogData } from '../catalog/catalog.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import type { Deal } from '../schemas/deal.ts';
import { SLUG_PATTERN } from '../schemas/fields.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import { noDrafts, withoutDraftFlag, type Drafts } from '../catalog/drafts.ts';
import { hasErrors, shown, type Diagnostic, type StageResult } from './diagnostics.ts';
import { parseEntry } from './parse.ts';
import { DEAL_FILES, editedRecordFileText, recordFileText, recordPath, type ContentRecord, type RecordFiles } from './record-files.ts';

/** One record file's text, by the slug its name gives. */
export interface RecordFile {
  slug: string;
  text: string;
}

/** A catalog after a write: its data, which records of the kind changed (drafts too: a draft leaves the search index) or went, and the files that hold the changed records. */
export interface ChangedCatalog<T extends ContentRecord = Deal> {
  data: CatalogData;
  changed: T[];
  removedIds: string[];
  files: RecordFile[];
}

export class ContentSnapshot {
  readonly site: Site;
  readonly categories: CategoriesFile;
  readonly synonyms: SynonymsFile | undefined;
  readonly version: string;
  readonly startups: readonly Startup[];
  /** The deals as the catalog holds them: the same array, so a startups change keeps every answer made of it. */
  private readonly dealList: readonly Deal[];
  private readonly drafts: Drafts;

  constructor(data: CatalogData) {
    this.dealList = data.deals;
    this.version = data.version;
    this.site = data.site;
    this.categories = data.categories;
    this.startups = data.startups;
    this.synonyms = data.synonyms;
    this.drafts = data.drafts ?? noDrafts();
  }

  /** `withChanges` for deals. */
  withDealChanges(upserts: readonly Deal[], removals: readonly string[], today: string, originals: ReadonlyMap<string, string> = new Map()): StageResult<ChangedCatalog | undefined> {
    return this.withChanges(DEAL_FILES, upserts, removals, today, originals);
  }

  /**
   * The catalog after upserting `upserts` (by slug) and removing the records of this kind with
   * slugs in `removals`, or the diagnostics that forbid it; nothing is written anywhere.
   * `originals` holds the current text of record files by slug: an upsert of a record this
   * catalog has (by id) edits its file in place (only the changed fields change), any other
   * one is a new file.
   */
  withChanges<T extends ContentRecord>(
    kind: RecordFiles<T>,
    upserts: readonly T[],
    removals: readonly string[],
    today: string,
    originals: ReadonlyMap<string, string> = new Map(),
  ): StageResult<ChangedCatalog<T> | undefined> {
    const diagnostics: Diagnostic[] = [];
    const fresh: RecordFile[] = [];
    for (const record of upserts) {
      // The slug names the file: anything but a plain slug could write outside the folder.
      if (typeof record.slug !== 'string' || !SLUG_PATTERN.test(record.slug)) {
        diagnostics.push({
          severity: 'error',
          code: 'invalid_slug',
          file: `content/${kind.folder}`,
          field: 'slug',
          message: `expected lowercase letters, digits and single hyphens, like \`cloud-credits\`, got ${shown(record.slug)}`,
        });
      } else {
        fresh.push({ slug: record.slug, text: recordFileText(kind, record) });
      }
    }
    if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
    const checked = this.readFiles(kind, fresh, today);
    if (hasErrors(checked.diagnostics)) return this.withRead(kind, fresh, checked.changed, removals, checked.diagnostics);

    // Files hold the validated records (defaults filled, links normalised), as a build reads them back.
    const records = new Map(checked.changed.map((r) => [r.slug, r]));
    const byId = originals.size > 0 ? this.byId(kind, new Set(checked.changed.map((r) => r.id))) : new Map<string, T>();
    let edited = false;
    const files = fresh.map(({ slug }) => {
      const record = records.get(slug) as T;
      const before = byId.get(record.id);
      const original = before && originals.get(before.slug);
      if (!before || original === undefined) return { slug, text: recordFileText(kind, record) };
      edited = true;
      return { slug, text: editedRecordFileText(kind, original, before, record) };
    });
    // An edited file also keeps what it held beyond the catalog's copy (a hand edit not yet
    // indexed): what is served is read back from the files as written.
    return edited ? this.withFiles(kind, files, removals, today) : this.withRead(kind, files, checked.changed, removals);
  }

  /**
   * The catalog after record files of this kind changed on disk (another instance's commits):
   * each file's text goes the same parse → validate path as a build; `removals` are slugs
   * whose file went.
   */
  withFiles<T extends ContentRecord>(kind: RecordFiles<T>, files: readonly RecordFile[], removals: readonly string[], today: string): StageResult<ChangedCatalog<T> | undefined> {
    const { changed, diagnostics } = this.readFiles(kind, files, today);
    return this.withRead(kind, files, changed, removals, diagnostics);
  }

  // --- internal ---

  /** The records `files` hold, each through the same parse → validate path as a build, or the problems. */
  private readFiles<T extends ContentRecord>(kind: RecordFiles<T>, files: readonly RecordFile[], today: string): { changed: T[]; diagnostics: Diagnostic[] } {
    const diagnostics: Diagnostic[] = [];
    const changed: T[] = [];
    for (const file of files) {
      const parsed = parseEntry({ path: `content/${recordPath(kind, file.slug)}`, text: file.text });
      diagnostics.push(...parsed.diagnostics);
      if (!parsed.value) continue;
      const checked = kind.validate([parsed.value], this.categories, today);
      diagnostics.push(...checked.diagnostics.filter((d) => d.severity === 'error'));
      // `draft: false` is stored as no `draft` key, as a build keeps it (a publish leaves no `draft: false` line).
      const validated = checked.value[0]?.record;
      const record = validated && withoutDraftFlag(validated);
      if (record) changed.push(record);
    }
    return { changed, diagnostics };
  }

  /**
   * The catalog with `changed` (read from `files`) upserted and `removals` gone, or, when reading
   * them gave errors (`problems`) or an id is then taken twice, all of those problems.
   */
  private withRead<T extends ContentRecord>(
    kind: RecordFiles<T>,
    files: readonly RecordFile[],
    changed: T[],
    removals: readonly string[],
    problems: readonly Diagnostic[] = [],
  ): StageResult<ChangedCatalog<T> | undefined> {
    const { records, removedIds } = this.afterChange(kind, changed, removals);
    const diagnostics = [...problems, ...duplicateIds(kind, records, changed)];
    if (hasErrors(diagnostics)) return { value: undefined, diagnostics };

    const version = createHash('sha256')
      .update(JSON.stringify([this.version, kind.folder, changed, removedIds]))
      .digest('hex')
      .slice(0, 16);
    // The other kind did not change: the same (sorted) array keeps every answer built from it.
    // The drafts among this kind's records are kept apart, as a build keeps them (catalog/drafts.ts).
    const data = kind.withRecords({ ...this.data(), version }, records.sort(kind.compare));
    return { value: { data, changed, removedIds, files: [...files] }, diagnostics: [] };
  }

  /**
   * This kind's records after `upserts` (by slug; a later one wins) and `removals` (slugs): each
   * kept record where it was, an upsert in place of the record it replaces or after them all.
   * One walk over the records, no map of them all: at 50,000 deals two such maps took about
   * 250 ms of every admin write (profile of 12 writes).
   */
  private afterChange<T extends ContentRecord>(kind: RecordFiles<T>, upserts: readonly T[], removals: readonly string[]): { records: T[]; removedIds: string[] } {
    const pending = new Map(upserts.map((record) => [record.slug, record]));
    const gone = new Set(removals);
    const goneIds = new Map<string, string>();
    const records: T[] = [];
    for (const record of kind.records(this.data())) {
      if (gone.has(record.slug)) {
        goneIds.set(record.slug, record.id);
        continue;
      }
      const upsert = pending.get(record.slug);
      pending.delete(record.slug);
      records.push(upsert ?? record);
    }
    // A loop, not a spread: a pull may bring every file of a big catalog.
    for (const upsert of pending.values()) records.push(upsert);
    const removedIds = removals.map((slug) => goneIds.get(slug)).filter((id): id is string => id !== undefined);
    return { records, removedIds };
  }

  /** This kind's records (drafts included) whose id is one of `ids`, by id. */
  private byId<T extends ContentRecord>(kind: RecordFiles<T>, ids: ReadonlySet<string>): Map<string, T> {
    const found = new Map<string, T>();
    for (const record of kind.records(this.data())) if (ids.has(record.id)) found.set(record.id, record);
    return found;
  }

  private data(): CatalogData {
    return {
      version: this.version,
      site: this.site,
      categories: this.categories,
      deals: this.dealList as Deal[],
      startups: this.startups as Startup[],
      ...(this.synonyms ? { synonyms: this.synonyms } : {}),
      drafts: this.drafts,
    };
  }
}

// --- internal ---

/** An error for each changed record whose id another record (by slug) in `records` has too. */
function duplicateIds<T extends ContentRecord>(kind: RecordFiles<T>, records: readonly T[], changed: readonly T[]): Diagnostic[] {
  const changedIds = new Set(changed.map((record) => record.id));
  const slugsById = new Map<string, string[]>();
  for (const record of records) {
    if (!changedIds.has(record.id)) continue;
    const slugs = slugsById.get(record.id);
    if (slugs) slugs.push(record.slug);
    else slugsById.set(record.id, [record.slug]);
  }
  const diagnostics: Diagnostic[] = [];
  for (const record of changed) {
    for (const otherSlug of slugsById.get(record.id) ?? []) {
      if (otherSlug !== record.slug) {
        diagnostics.push({
          severity: 'error',
          code: 'duplicate_id',
          file: `content/${recordPath(kind, record.slug)}`,
          field: 'id',
          message: `id ${shown(record.id)} is already used by ${shown(otherSlug)}`,
        });
      }
    }
  }
  return diagnostics;
}
