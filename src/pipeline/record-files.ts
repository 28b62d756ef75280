/**
 * How each kind of record (deals, startups) is kept in the content tree: one Markdown file per
 * record under its folder, named by its slug, front matter in schema order, description as the
 * body; a changed record edited into the file an editor wrote (issue 16, item 6); and which
 * pipeline rules check it and in which order the catalog lists it. Writes and
 * the history read every kind through one of these, never through a kind-specific copy.
 */
import type { CatalogData } from '../catalog/catalog.ts';
import { noDrafts, splitDrafts } from '../catalog/drafts.ts';
import { compareDeals, compareStartups } from '../catalog/order.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import { DealFrontMatterSchema, type Deal } from '../schemas/deal.ts';
import { StartupFrontMatterSchema, type Startup } from '../schemas/startup.ts';
import type { StageResult } from './diagnostics.ts';
import type { ParsedEntry } from './parse.ts';
import { editMarkdown, frontMatterChanges } from './front-matter-edit.ts';
import { toMarkdown } from './serialize.ts';
import { validateDeals, validateStartups, type Located } from './validate.ts';

/** What every content record has: the id that survives renames, the slug that names its file, and whether it is a draft (catalog/drafts.ts). */
export interface ContentRecord {
  id: string;
  slug: string;
  draft?: boolean | undefined;
}

export interface RecordFiles<T extends ContentRecord> {
  /** Folder inside the content root. */
  folder: 'deals' | 'startups';
  /** Front matter keys in the order files keep them. */
  frontMatterKeys: readonly string[];
  /** The build's own rules for records of this kind (schema, categories, sources, dates). */
  validate: (entries: readonly ParsedEntry[], categories: CategoriesFile, today: string) => StageResult<Located<T>[]>;
  /** The catalog's default order. */
  compare: (a: T, b: T) => number;
  /** The records of this kind, drafts included (a draft's slug and id are taken too). */
  records: (data: CatalogData) => readonly T[];
  /** `data` with these records (already in order) in place of its own of this kind, the drafts among them apart (`data.drafts`). */
  withRecords: (data: CatalogData, records: T[]) => CatalogData;
}

export const DEAL_FILES: RecordFiles<Deal> = {
  folder: 'deals',
  frontMatterKeys: Object.keys(DealFrontMatterSchema.shape),
  validate: validateDeals,
  compare: compareDeals,
  records: (data) => withDraftsOf(data.deals, data.drafts?.deals),
  withRecords: (data, records) => {
    const { published, drafts } = splitDrafts(records);
    return { ...data, deals: published, drafts: { ...(data.drafts ?? noDrafts()), deals: drafts } };
  },
};

export const STARTUP_FILES: RecordFiles<Startup> = {
  folder: 'startups',
  frontMatterKeys: Object.keys(StartupFrontMatterSchema.shape),
  validate: (entries, categories) => validateStartups(entries, categories),
  compare: compareStartups,
  records: (data) => withDraftsOf(data.startups, data.drafts?.startups),
  withRecords: (data, records) => {
    const { published, drafts } = splitDrafts(records);
    return { ...data, startups: published, drafts: { ...(data.drafts ?? noDrafts()), startups: drafts } };
  },
};

/**
 * Path of a record's file inside the content root.
 * @example recordPath(DEAL_FILES, 'aws-activate') // 'deals/aws-activate.md'
 */
export function recordPath(kind: Pick<RecordFiles<ContentRecord>, 'folder'>, slug: string): string {
  return `${kind.folder}/${slug}.md`;
}

/**
 * A new record file's text: front matter in schema order (then any other keys, which
 * validation will refuse), description as the body.
 */
export function recordFileText<T extends ContentRecord>(kind: RecordFiles<T>, record: T): string {
  const { description, front } = split(record);
  const ordered: Record<string, unknown> = {};
  for (const key of kind.frontMatterKeys) ordered[key] = front[key];
  for (const [key, value] of Object.entries(front)) if (!(key in ordered)) ordered[key] = value;
  return toMarkdown(ordered, description ?? '');
}

/**
 * The text of the file `original` (which holds `before`) once it holds `after`: the fields
 * that differ are set or removed in place, so the editor's comments, key order and quoting
 * stay and only the changed fields' lines change (front-matter-edit.ts), and the body is
 * replaced only when the description changed. A file whose front matter cannot be edited in
 * place is written anew.
 * @example editedRecordFileText(DEAL_FILES, text, deal, { ...deal, title: 'New' }) // text with only its `title:` line changed
 */
export function editedRecordFileText<T extends ContentRecord>(kind: RecordFiles<T>, original: string, before: T, after: T): string {
  const was = split(before);
  const now = split(after);
  const body = was.description === now.description ? {} : { body: now.description ?? '' };
  return editMarkdown(original, frontMatterChanges(was.front, now.front), { order: kind.frontMatterKeys, ...body }) ?? recordFileText(kind, after);
}

/** A new deal file's text (see `recordFileText`). */
export const dealFileText = (deal: Deal): string => recordFileText(DEAL_FILES, deal);

/** A deal file edited in place (see `editedRecordFileText`). */
export const editedDealFileText = (original: string, before: Deal, after: Deal): string => editedRecordFileText(DEAL_FILES, original, before, after);

// --- internal ---

/** Published records, then drafts (the published array itself when there are none). */
function withDraftsOf<T>(published: readonly T[], drafts: readonly T[] = []): readonly T[] {
  return drafts.length === 0 ? published : [...published, ...drafts];
}

/** The front matter fields and the body of a record (the slug is the file name). */
function split(record: ContentRecord): { front: Record<string, unknown>; description: string | undefined } {
  const { description, slug: _slug, ...front } = record as ContentRecord & Record<string, unknown>;
  return { front, description: typeof description === 'string' ? description : undefined };
}
