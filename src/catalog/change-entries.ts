/**
 * The public changes one commit made to deals and startups, from the texts of the record files
 * it changed, before and after (the change feed: GET /changes, /changes.atom, MCP
 * `recent_changes`). A file is read as the admin's history reads it: front matter as written
 * (a hand commit may hold what the build refuses), the body as the description. Pure: texts in,
 * changes out.
 *
 * - Drafts are not public (catalog/drafts.ts): a draft published is `added`, a record made a
 *   draft again `removed`, and changes to a draft are none.
 * - A file deleted and one added in the same commit with the same `id` are one record renamed
 *   (DESIGN "Content model": a rename keeps the id): `updated`, `slug` among its fields.
 * - An edit that changed no field (formatting, comments, key order) is no change.
 * - A version that cannot be read (broken front matter) makes no change: it is skipped, with
 *   the reason, for the caller to log.
 */
import { entryRecord, parseEntry } from '../pipeline/parse.ts';
import { isContentFile } from '../pipeline/read-content.ts';
import { DEAL_FILES, STARTUP_FILES } from '../pipeline/record-files.ts';
import type { Change } from '../schemas/answers.ts';
import { fieldChanges } from './field-changes.ts';

/** A change as the feed keeps it: without its page `url`, added when it is answered (the site's address may change). */
export type ChangeEntry = Change;

/** A record file's version: its fields as written (slug and description included), or why it cannot be read. */
export type RecordText = { record: Record<string, unknown> } | { problem: string };

/** What a change says of the commit that made it. */
export interface ChangeCommit {
  commit: string;
  /** ISO 8601 with any offset; answered in UTC. */
  date: string;
  message: string;
  byStore: boolean;
}

/** A record file a commit changed: its content-relative path, its version before and after (absent: not there). */
export interface ChangedFile {
  path: string;
  before?: RecordText | undefined;
  after?: RecordText | undefined;
}

/** A file left out of the feed, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/**
 * Whether a content path is a record file, and of which kind.
 * @example recordKind('deals/aws-activate.md') // 'deal'; recordKind('site.yaml') // undefined
 */
export function recordKind(path: string): Change['kind'] | undefined {
  if (!isContentFile(path)) return undefined;
  return path.startsWith(`${DEAL_FILES.folder}/`) ? 'deal' : path.startsWith(`${STARTUP_FILES.folder}/`) ? 'startup' : undefined;
}

/**
 * A record file's text read as a version.
 * @example readRecordText('deals/x.md', '---\nid: d-1\ntitle: X\n---\nBody') // { record: { id: 'd-1', title: 'X', slug: 'x', description: 'Body' } }
 */
export function readRecordText(path: string, text: string): RecordText {
  const parsed = parseEntry({ path: `content/${path}`, text });
  if (parsed.value) return { record: entryRecord(parsed.value) };
  return { problem: parsed.diagnostics[0]?.message ?? 'the file could not be read' };
}

/**
 * The changes of one commit, deals before startups, each by slug; and the files skipped.
 * @example commitChanges(commit, [{ path: 'deals/x.md', after: readRecordText('deals/x.md', text) }]).changes // [{ change: 'added', kind: 'deal', slug: 'x', … }]
 */
export function commitChanges(commit: ChangeCommit, files: readonly ChangedFile[]): { changes: ChangeEntry[]; skipped: SkippedFile[] } {
  const skipped: SkippedFile[] = [];
  const versions: { kind: Change['kind']; before?: Version | undefined; after?: Version | undefined }[] = [];
  for (const file of files) {
    const kind = recordKind(file.path);
    if (!kind) continue;
    const problem = [file.before, file.after].find((side): side is { problem: string } => side !== undefined && 'problem' in side);
    if (problem) skipped.push({ path: file.path, reason: problem.problem });
    else versions.push({ kind, before: version(file.path, file.before), after: version(file.path, file.after) });
  }
  const changes = pairRenames(versions)
    .map(({ kind, before, after }) => entryOf(kind, before, after))
    .filter((entry) => entry !== undefined)
    .sort((a, b) => (a.kind === b.kind ? (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) : a.kind === 'deal' ? -1 : 1));
  const made = { commit: commit.commit, date: utcInstant(commit.date), message: commit.message, via: commit.byStore ? 'admin' : 'git' } as const;
  return { changes: changes.map((change) => ({ commit: made.commit, date: made.date, ...change, message: made.message, via: made.via })), skipped };
}

/**
 * An ISO 8601 date-time as the feed answers it: in UTC, to the second.
 * @example utcInstant('2026-11-20T10:30:00+01:00') // '2026-11-20T09:30:00Z'
 */
export function utcInstant(date: string): string {
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? date : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

// --- internal ---

/** A readable version of a record file: its slug (the file name) and its fields. */
interface Version {
  slug: string;
  record: Record<string, unknown>;
}

const KINDS = {
  deal: { order: ['slug', ...DEAL_FILES.frontMatterKeys, 'description'], label: 'title' },
  startup: { order: ['slug', ...STARTUP_FILES.frontMatterKeys, 'description'], label: 'name' },
} as const;

/** A file's version, its slug from its path (the same text may be read under another name: a rename). */
function version(path: string, side: RecordText | undefined): Version | undefined {
  if (!side || !('record' in side)) return undefined;
  const slug = path.slice(path.lastIndexOf('/') + 1, -'.md'.length);
  return { slug, record: { ...side.record, slug } };
}

/** A deleted file and an added one of the same kind with the same `id`: one record renamed. */
function pairRenames<T extends { kind: Change['kind']; before?: Version | undefined; after?: Version | undefined }>(versions: T[]): T[] {
  const idOf = (v: Version | undefined) => (typeof v?.record.id === 'string' ? v.record.id : undefined);
  const deleted = new Map(versions.filter((v) => v.before && !v.after && idOf(v.before) !== undefined).map((v) => [`${v.kind} ${idOf(v.before)}`, v]));
  const out: T[] = [];
  const paired = new Set<T>();
  for (const v of versions) {
    const from = !v.before && v.after ? deleted.get(`${v.kind} ${idOf(v.after)}`) : undefined;
    if (from && !paired.has(from)) {
      paired.add(from);
      out.push({ ...v, before: from.before });
    } else out.push(v);
  }
  return out.filter((v) => !paired.has(v));
}

/** The public change from one version to the next, if the public saw one. */
function entryOf(kind: Change['kind'], before: Version | undefined, after: Version | undefined): Pick<Change, 'kind' | 'slug' | 'previousSlug' | 'change' | 'fields' | 'title'> | undefined {
  const [was, is] = [isPublic(before), isPublic(after)];
  const title = (v: Version) => {
    const label = v.record[KINDS[kind].label];
    return typeof label === 'string' && label.trim() !== '' ? label : v.slug;
  };
  if (!was && is) return { kind, slug: is.slug, change: 'added', title: title(is) };
  if (was && !is) return { kind, slug: was.slug, change: 'removed', title: title(was) };
  if (!was || !is) return undefined;
  const fields = fieldChanges(was.record, is.record, KINDS[kind].order).map((f) => f.field);
  if (fields.length === 0) return undefined;
  const expired = kind === 'deal' && was.record.status !== 'expired' && is.record.status === 'expired';
  return { kind, slug: is.slug, ...(was.slug === is.slug ? {} : { previousSlug: was.slug }), change: expired ? 'expired' : 'updated', fields, title: title(is) };
}

/** A version the public sees: there, and not a draft. */
const isPublic = (v: Version | undefined): Version | undefined => (v && v.record.draft !== true ? v : undefined);
