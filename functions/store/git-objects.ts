/**
 * A git repository's objects read and written in JavaScript (isomorphic-git), with no git
 * program and no index: trees compared (unchanged folders skipped by their object id), trees
 * rebuilt with some files changed, blobs read as of a commit, and a file's history walked the
 * way `git log --follow -M --no-merges` walks it, and the first-parent line with what each
 * commit changed (git-history.ts does both with git itself).
 * Paths are content-relative: `prefix` is the content folder inside the repository.
 */
import fs from 'node:fs';
import git, { type ReadCommitResult, type TreeEntry } from 'isomorphic-git';
import { COMMIT_ID } from '../../src/schemas/requests.ts';
import type { FileCommit, LineCommit, LineFile } from './content-store.ts';
import { isSafePath } from './git-history.ts';

/** One file that differs between two trees: its entry before and after (absent where the file is not there). */
export interface FileDiff {
  path: string;
  before?: TreeEntry | undefined;
  after?: TreeEntry | undefined;
}

interface ParsedTree {
  /** The tree's own id (also when it was asked for by its commit's). */
  oid: string;
  entries: ReadonlyMap<string, TreeEntry>;
}

/** How many tree entries stay parsed in memory. */
const TREE_CACHE_ENTRIES = 200_000;
/** The most deleted files a rename is looked for among, by content (exact renames are always found). */
const RENAME_CANDIDATES = 100;
/** Git's default rename threshold (`-M`): half the content kept. */
const RENAME_SIMILARITY = 0.5;

export class GitObjects {
  /** isomorphic-git's cache of parsed pack indexes, kept for the life of the store. */
  private readonly cache = {};
  private readonly trees = new Map<string, ParsedTree>();
  private treeEntries = 0;

  readonly dir: string;
  /** The content folder inside the repository ('' for its root). */
  private readonly prefix: string;

  constructor(dir: string, prefix: string) {
    this.dir = dir;
    this.prefix = prefix;
  }

  /** The entry at a content path as of `treeish` (a commit or tree); '' is the content folder itself. */
  async entryAt(treeish: string, path: string): Promise<TreeEntry | undefined> {
    const full = [this.prefix, path].filter(Boolean).join('/');
    let current = await this.tree(treeish);
    if (!full) return { mode: '040000', path: '', oid: current.oid, type: 'tree' };
    const parts = full.split('/');
    for (const [i, name] of parts.entries()) {
      const entry = current.entries.get(name);
      if (!entry || i === parts.length - 1) return entry;
      if (entry.type !== 'tree') return undefined;
      current = await this.tree(entry.oid);
    }
    return undefined;
  }

  /** The content folder's tree as of a commit (undefined when the commit has none). */
  async contentTree(commit: string): Promise<string | undefined> {
    const entry = await this.entryAt(commit, '');
    return entry?.type === 'tree' ? entry.oid : undefined;
  }

  /** The files that differ between two content trees (undefined: empty), by content-relative path. */
  async diff(a: string | undefined, b: string | undefined, base = ''): Promise<FileDiff[]> {
    if (a === b) return [];
    const [left, right] = await Promise.all([this.entries(a), this.entries(b)]);
    const out: FileDiff[] = [];
    for (const name of [...new Set([...left.keys(), ...right.keys()])].sort()) {
      const [l, r] = [left.get(name), right.get(name)];
      if (l?.oid === r?.oid && l?.mode === r?.mode) continue;
      const path = base ? `${base}/${name}` : name;
      const [lTree, rTree] = [l?.type === 'tree' ? l.oid : undefined, r?.type === 'tree' ? r.oid : undefined];
      if (lTree || rTree) out.push(...(await this.diff(lTree, rTree, path)));
      const [lFile, rFile] = [l?.type === 'tree' ? undefined : l, r?.type === 'tree' ? undefined : r];
      if (lFile || rFile) out.push({ path, before: lFile, after: rFile });
    }
    return out;
  }

  /**
   * A repository root tree with files set (to a blob id) or removed (null), by repository path;
   * `written` collects the trees written (what a push must send besides the blobs and the commit).
   */
  async editRoot(tree: string, edits: ReadonlyMap<string, string | null>, written: string[] = []): Promise<string> {
    const root = (await this.editTree(tree, edits, written)) ?? (await git.writeTree({ fs, dir: this.dir, tree: [] }));
    written.push(root);
    return root;
  }

  /** A tree with files set or removed; undefined when nothing is left in it (an emptied folder goes, as in git). */
  private async editTree(tree: string | undefined, edits: ReadonlyMap<string, string | null>, written: string[]): Promise<string | undefined> {
    const entries = new Map(await this.entries(tree));
    const folders = new Map<string, Map<string, string | null>>();
    for (const [path, blob] of edits) {
      const slash = path.indexOf('/');
      if (slash !== -1) {
        const name = path.slice(0, slash);
        const sub = folders.get(name) ?? new Map<string, string | null>();
        folders.set(name, sub.set(path.slice(slash + 1), blob));
      } else if (blob === null) {
        entries.delete(path);
      } else {
        const old = entries.get(path);
        entries.set(path, { mode: old?.type === 'blob' ? old.mode : '100644', path, oid: blob, type: 'blob' });
      }
    }
    for (const [name, sub] of folders) {
      const old = entries.get(name);
      const child = await this.editTree(old?.type === 'tree' ? old.oid : undefined, sub, written);
      if (child) {
        written.push(child);
        entries.set(name, { mode: '040000', path: name, oid: child, type: 'tree' });
      } else if (old?.type === 'tree') entries.delete(name);
    }
    if (entries.size === 0) return undefined;
    return git.writeTree({ fs, dir: this.dir, tree: [...entries.values()] });
  }

  async readBytes(oid: string): Promise<Uint8Array> {
    return (await git.readBlob({ fs, dir: this.dir, oid, cache: this.cache })).blob;
  }

  async readBlob(oid: string): Promise<string> {
    return Buffer.from(await this.readBytes(oid)).toString('utf8');
  }

  /** A content file's text as of a commit; undefined when it was not there (or the commit is unknown). */
  async textAt(commit: string, path: string): Promise<string | undefined> {
    if (!COMMIT_ID.test(commit) || !isSafePath(path)) return undefined;
    try {
      const entry = await this.entryAt(commit, path);
      return entry?.type === 'blob' ? await this.readBlob(entry.oid) : undefined;
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError') return undefined;
      throw error;
    }
  }

  /** A blob's text by id; undefined when there is no such blob. */
  async blobText(oid: string): Promise<string | undefined> {
    if (!COMMIT_ID.test(oid)) return undefined;
    try {
      return await this.readBlob(oid);
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFoundError' || (error as { code?: string }).code === 'ObjectTypeError') return undefined;
      throw error;
    }
  }

  readCommit(oid: string): Promise<ReadCommitResult> {
    return git.readCommit({ fs, dir: this.dir, oid, cache: this.cache });
  }

  /**
   * The commits that changed a content file, newest first (by committer date), from `head`:
   * merges are not listed, and a merge whose file equals one parent's is followed through that
   * parent only (git's history simplification); an added file that another, deleted in the same
   * commit, had the content (or half the lines) of is a rename, followed back to the old name.
   */
  async fileLog(head: string, path: string, page: { offset: number; limit: number }, storeEmail: string): Promise<FileCommit[]> {
    const wanted = whole(page.offset) + whole(page.limit);
    const found: FileCommit[] = [];
    const queue = [await this.readCommit(head)];
    const seen = new Set([head]);
    let current = path;
    while (queue.length > 0 && found.length < wanted) {
      queue.sort((a, b) => a.commit.committer.timestamp - b.commit.committer.timestamp);
      const { oid, commit } = queue.pop() as ReadCommitResult;
      const here = await this.entryAt(oid, current);
      const before = await Promise.all(commit.parent.map((parent) => this.entryAt(parent, current)));
      let follow = commit.parent;
      if (commit.parent.length > 1) {
        const same = before.findIndex((entry) => sameFile(entry, here));
        if (same !== -1) follow = [commit.parent[same] as string];
      } else if (!sameFile(here, before[0])) {
        const parent = commit.parent[0];
        const renamedFrom = here && !before[0] && parent ? await this.renameSource(parent, oid, here) : undefined;
        found.push({
          commit: oid,
          ...(parent ? { parent } : {}),
          author: { name: commit.author.name, email: commit.author.email },
          byStore: commit.committer.email === storeEmail,
          date: isoDate(commit.author),
          message: subject(commit.message),
          status: renamedFrom ? 'R' : !here ? 'D' : !before[0] ? 'A' : 'M',
          path: current,
          previousPath: renamedFrom ?? current,
        });
        current = renamedFrom ?? current;
      }
      for (const parent of follow) {
        if (seen.has(parent)) continue;
        seen.add(parent);
        queue.push(await this.readCommit(parent));
      }
    }
    return found.slice(whole(page.offset));
  }

  /**
   * The first-parent line from `head`, newest first (as `git log --first-parent` lists it), at
   * most `range.limit` commits; the walk stops before `range.after`.
   */
  async lineLog(head: string, range: { after?: string | undefined; limit: number }, storeEmail: string): Promise<LineCommit[]> {
    const found: LineCommit[] = [];
    for (let oid: string | undefined = head; oid !== undefined && oid !== range.after && found.length < Math.max(1, whole(range.limit));) {
      const { commit } = await this.readCommit(oid);
      const parent = commit.parent[0];
      found.push({ commit: oid, ...(parent ? { parent } : {}), date: isoDate(commit.committer), message: subject(commit.message), byStore: commit.committer.email === storeEmail });
      oid = parent;
    }
    return found;
  }

  /** The content files a commit changed against `parent` (none: every file it holds), with their blobs. */
  async commitFiles({ commit, parent }: Pick<LineCommit, 'commit' | 'parent'>): Promise<LineFile[]> {
    const [before, after] = await Promise.all([parent ? this.contentTree(parent) : undefined, this.contentTree(commit)]);
    return (await this.diff(before, after)).map((file) => ({ path: file.path, ...(file.before ? { before: file.before.oid } : {}), ...(file.after ? { after: file.after.oid } : {}) }));
  }

  // --- internal ---

  private async entries(tree: string | undefined): Promise<ReadonlyMap<string, TreeEntry>> {
    return tree ? (await this.tree(tree)).entries : new Map();
  }

  /** A tree (or a commit's), parsed once: walking history reads the same large folders again and again. */
  private async tree(oid: string): Promise<ParsedTree> {
    const known = this.trees.get(oid);
    if (known) return known;
    const { oid: treeOid, tree } = await git.readTree({ fs, dir: this.dir, oid, cache: this.cache });
    const parsed = { oid: treeOid, entries: new Map(tree.map((entry) => [entry.path, entry])) };
    this.trees.set(oid, parsed);
    this.treeEntries += parsed.entries.size;
    // Oldest out first, so a bounded number of entries stays in memory (about 100 bytes each).
    for (const [key, old] of this.trees) {
      if (this.treeEntries <= TREE_CACHE_ENTRIES) break;
      this.trees.delete(key);
      this.treeEntries -= old.entries.size;
    }
    return parsed;
  }

  /** The content path a file added in `commit` was renamed from in `parent`, if any. */
  private async renameSource(parent: string, commit: string, added: TreeEntry): Promise<string | undefined> {
    const deleted = (await this.diff(await this.contentTree(parent), await this.contentTree(commit))).filter((d) => d.before?.type === 'blob' && !d.after);
    const exact = deleted.find((d) => d.before?.oid === added.oid);
    if (exact) return exact.path;
    const text = await this.readBlob(added.oid);
    let best: { path: string; score: number } | undefined;
    for (const candidate of deleted.slice(0, RENAME_CANDIDATES)) {
      const score = similarity(await this.readBlob((candidate.before as TreeEntry).oid), text);
      if (score >= RENAME_SIMILARITY && score > (best?.score ?? 0)) best = { path: candidate.path, score };
    }
    return best?.path;
  }
}

/** The text of each `{ commit, path }` as of that commit, in order; undefined where the file was not there. */
export function readAt(objects: GitObjects, versions: readonly { commit: string; path: string }[]): Promise<(string | undefined)[]> {
  return Promise.all(versions.map(({ commit, path }) => objects.textAt(commit, path)));
}

// --- internal ---

const whole = (n: number): number => Math.max(0, Math.floor(n));

const sameFile = (a: TreeEntry | undefined, b: TreeEntry | undefined): boolean => a?.oid === b?.oid && a?.mode === b?.mode;

/** The subject as `git log --format=%s` shows it: the first paragraph, its lines joined by spaces. */
function subject(message: string): string {
  return (message.trim().split(/\n\s*\n/)[0] ?? '')
    .split('\n')
    .map((line) => line.trim())
    .join(' ');
}

/** A commit's date as `%aI` prints it (strict ISO 8601 with the author's offset). */
function isoDate({ timestamp, timezoneOffset }: { timestamp: number; timezoneOffset: number }): string {
  const east = -timezoneOffset;
  const local = new Date((timestamp + east * 60) * 1000).toISOString().slice(0, 19);
  const sign = east < 0 ? '-' : '+';
  const [hours, minutes] = [Math.floor(Math.abs(east) / 60), Math.abs(east) % 60].map((n) => String(n).padStart(2, '0'));
  return `${local}${sign}${hours}:${minutes}`;
}

/** The share of the larger text made of lines the other also has (git's rename score, by lines). */
function similarity(a: string, b: string): number {
  const lines = new Map<string, number>();
  for (const line of a.split(/(?<=\n)/)) lines.set(line, (lines.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of b.split(/(?<=\n)/)) {
    const left = lines.get(line) ?? 0;
    if (left > 0) {
      lines.set(line, left - 1);
      common += line.length;
    }
  }
  return common / Math.max(a.length, b.length, 1);
}
