/**
 * The content store: where accepted writes go. One interface; `git-store.ts` (a local git
 * repository) is the embedded default. A resolved `commit` means the change is on disk and
 * committed; a rejected one leaves the store as it was.
 */

/**
 * One file change, by path relative to the content root (`deals/acme.md`): its new text (UTF-8),
 * or its bytes (a logo image, `logos/deals/acme.webp`); `text: null` deletes.
 */
export interface ContentChange {
  path: string;
  text: string | Uint8Array | null;
}

export interface CommitInfo {
  message: string;
  author: { name: string; email: string };
}

export interface ContentStore {
  /** The content root on disk (what the pipeline reads). */
  readonly root: string;
  read(path: string): Promise<string | undefined>;
  /** Names of the files directly in a folder of the store (empty when it does not exist). */
  list(folder: string): Promise<string[]>;
  /**
   * Apply every change and record them as one commit, or none of them. Calls run one at a time.
   * With a remote, the commit is also pushed before this resolves; `integrated` says other
   * commits from the remote came in under it (the caller re-reads what they changed).
   */
  commit(changes: readonly ContentChange[], info: CommitInfo): Promise<CommitResult>;
  /** The current commit and whether writes can be taken now. */
  status(): Promise<{ commit: string | undefined; writable: boolean; problem?: string }>;
  /** The commit checked out when the store was opened, where opening read it: the start need not ask again. */
  readonly headWhenOpened?: string | undefined;
  /** Bring in commits from the remote, if there is one (fast-forward); resolves with the new head. */
  pull(): Promise<{ commit: string | undefined; moved: boolean }>;
  /** Content paths (relative to the root) that differ between two commits; `undefined` when unknown. */
  changedPaths(from: string, to: string): Promise<string[] | undefined>;
  /**
   * The commits that changed one file, newest first, a page at a time, following renames back
   * to earlier names; merge commits are left out (the commits they bring in are listed).
   */
  history(path: string, page: { offset: number; limit: number }): Promise<FileCommit[]>;
  /** The texts of files as of commits (full commit ids), in order; `undefined` where a file was not there. */
  readAt(versions: readonly { commit: string; path: string }[]): Promise<(string | undefined)[]>;
  /**
   * The branch's first-parent line from `head` (full commit id), newest first: the states the
   * branch has been in, merges included, at most `range.limit` commits. With `range.after`,
   * the line ends before that commit when it is on it (the oldest commit listed then has it as
   * `parent`); when it is not, what comes back is some newest part of the line, and its oldest
   * `parent` is not `after`.
   */
  log(head: string, range: { after?: string | undefined; limit: number }): Promise<LineCommit[]>;
  /**
   * The content files each commit changed against its first parent (a merge: what it brought
   * in; a root commit: every file), in order; no rename detection.
   */
  commitFiles(commits: readonly Pick<LineCommit, 'commit' | 'parent'>[]): Promise<LineFile[][]>;
  /** The texts of blobs by id (as `commitFiles` names them), in order; `undefined` where there is none. */
  readBlobs(ids: readonly string[]): Promise<(string | undefined)[]>;
}

/** One commit of the first-parent line, as `ContentStore.log` lists it. */
export interface LineCommit {
  commit: string;
  /** The first parent (absent on a root commit). */
  parent?: string;
  /** Committer date, ISO 8601: when the commit was made on the line (a rebase or merge dates it anew). */
  date: string;
  /** The subject line. */
  message: string;
  /** Committed by the store itself (see `FileCommit.byStore`). */
  byStore: boolean;
}

/** A content file a commit changed: its path relative to the content root, its blob before and after (absent where the file was not there). */
export interface LineFile {
  path: string;
  before?: string;
  after?: string;
}

/** One commit that changed a file, as `ContentStore.history` lists it. */
export interface FileCommit {
  commit: string;
  /** The first parent (absent on a root commit): where the file's earlier text is read. */
  parent?: string;
  author: { name: string; email: string };
  /** Committed by the store itself (an admin's write, an approved submission), not by hand or another tool. */
  byStore: boolean;
  /** Author date, ISO 8601. */
  date: string;
  /** The subject line. */
  message: string;
  /** `A` added, `M` modified, `D` deleted, `R` renamed (maybe modified too), `C` copied, `T` type changed. */
  status: string;
  /** Content-relative path after the commit, and before it (the same unless renamed or copied). */
  path: string;
  previousPath: string;
}

export interface CommitResult {
  commit: string;
  integrated?: boolean;
}

/** The store cannot take writes now (not a repository, read-only, disk full, lock held). */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** The remote moved under a write in a way a rebase cannot reconcile (same file changed). */
export class StoreConflictError extends StoreUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConflictError';
  }
}

/** A content path must stay inside its folder: `deals/<slug>.md` style, nothing else. */
export function assertSafePath(path: string): void {
  if (!/^(?:[a-z0-9][a-z0-9-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*$/.test(path) || path.split('/').some((part) => part === '..' || part.startsWith('.'))) {
    throw new Error(`unsafe content path: ${JSON.stringify(path)}`);
  }
}
