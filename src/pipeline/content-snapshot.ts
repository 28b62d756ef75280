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
  /** Every deal by slug, drafts included (a draft's slug and id are taken too). */
  readonly deals: ReadonlyMap<string, Deal>;
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
    this.deals = new Map(DEAL_FILES.records(this.data()).map((d) => [d.slug, d]));
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
    const checked = this.withFiles(kind, fresh, removals, today);
    if (!checked.value) return checked;

    // Files hold the validated records (defaults filled, links normalised), as a build reads them back.
    const records = new Map(checked.value.changed.map((r) => [r.slug, r]));
    const byId = originals.size > 0 ? new Map(kind.records(this.data()).map((r) => [r.id, r])) : new Map<string, T>();
    let edited = false;
    const files = fresh.map(({ slug }) => {
      const record = records.get(slug) as T;
      const before = byId.get(record.id);
      const original = before && originals.get(before.slug);
      if (!before || original === undefined) return { slug, text: recordFileText(kind, record) };
      edited = true;
      return { slug, text: editedRecordFileText(kind, original, before, record) };
    });
    if (!edited) return { value: { ...checked.value, files }, diagnostics: checked.diagnostics };
    // An edited file also keeps what it held beyond the catalog's copy (a hand edit not yet
    // indexed): what is served is read back from the files as written.
    return this.withFiles(kind, files, removals, today);
  }

  /**
   * The catalog after record files of this kind changed on disk (another instance's commits):
   * each file's text goes the same parse → validate path as a build; `removals` are slugs
   * whose file went.
   */
  withFiles<T extends ContentRecord>(kind: RecordFiles<T>, files: readonly RecordFile[], removals: readonly string[], today: string): StageResult<ChangedCatalog<T> | undefined> {
    const current = new Map(kind.records(this.data()).map((r) => [r.slug, r]));
    const next = new Map(current);
    for (const slug of removals) next.delete(slug);
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
      if (record) {
        next.set(record.slug, record);
        changed.push(record);
      }
    }
    diagnostics.push(...duplicateIds(kind, next, changed));
    if (hasErrors(diagnostics)) return { value: undefined, diagnostics };

    const removedIds = removals.map((slug) => current.get(slug)?.id).filter((id): id is string => id !== undefined);
    const version = createHash('sha256')
      .update(JSON.stringify([this.version, kind.folder, changed, removedIds]))
      .digest('hex')
      .slice(0, 16);
    // The other kind did not change: the same (sorted) array keeps every answer built from it.
    // The drafts among this kind's records are kept apart, as a build keeps them (catalog/drafts.ts).
    const data = kind.withRecords({ ...this.data(), version }, [...next.values()].sort(kind.compare));
    return { value: { data, changed, removedIds, files: [...files] }, diagnostics: [] };
  }

  // --- internal ---

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

function duplicateIds<T extends ContentRecord>(kind: RecordFiles<T>, records: ReadonlyMap<string, T>, changed: readonly T[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const slugsById = new Map<string, string[]>();
  for (const record of records.values()) slugsById.set(record.id, [...(slugsById.get(record.id) ?? []), record.slug]);
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
