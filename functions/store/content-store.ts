/**
 * The content store: where accepted writes go. One interface; `git-store.ts` (a local git
 * repository) is the embedded default. A resolved `commit` means the change is on disk and
 * committed; a rejected one leaves the store as it was.
 */

/** One file change, by path relative to the content root (`deals/acme.md`); `text: null` deletes. */
export interface ContentChange {
  path: string;
  text: string | null;
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
