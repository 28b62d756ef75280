/**
 * The embedded content store: a folder inside a local git repository. Each write is applied
 * atomically (temp file, fsync, rename) and recorded as one commit with the actor as author;
 * writes run one at a time. A journal in `.git/` names the files of the write in flight, so a
 * process killed mid-write is rolled back to the last commit on the next start.
 *
 * With a remote (several instances, docs/scaling.md), every commit is pushed before the write
 * is acknowledged: a rejected push fetches, rebases the commit onto the remote and pushes
 * again; when that cannot work (the same file changed, the remote unreachable) the commit is
 * taken back and the write fails with nothing left behind. `pull` fast-forwards to the remote.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  assertSafePath,
  StoreConflictError,
  StoreUnavailableError,
  type CommitInfo,
  type CommitResult,
  type ContentChange,
  type ContentStore,
  type FileCommit,
  type LineCommit,
  type LineFile,
} from './content-store.ts';
import { commitFiles, fileLog, lineLog, readAt, readBlobs } from './git-history.ts';
import { authorOf, listContentFolder, PUSH_ATTEMPTS, pushPause, readContentBytes, readContentFile, safeCommitInfo, STORE_COMMITTER } from './store-rules.ts';
import { WriteQueue } from './write-queue.ts';
import { ifMissing } from '../../src/missing-file.ts';
import { once } from '../../src/catalog/once.ts';

const run = promisify(execFile);
const JOURNAL = 'deals-store-journal.json';
/** Git itself fsyncs what a commit writes: objects, refs and the index. */
const GIT_SETTINGS = ['-c', 'core.fsync=committed,index', '-c', 'core.fsyncMethod=fsync', '-c', 'commit.gpgsign=false'];

/** Where commits are published: a configured git remote and branch. */
export interface GitRemote {
  name: string;
  /** The branch on the remote; by default the branch checked out. */
  branch?: string | undefined;
}

export class GitStore implements ContentStore {
  readonly root: string;
  private readonly repo: { top: string; gitDir: string } | undefined;
  private readonly remote: Required<GitRemote> | undefined;
  /**
   * Whether the repository tracks nothing outside the content folder and had a first commit when
   * opened. Asked of git on first use (a write, or any git command, which takes the split index
   * from it), not at start: `ls-files` was a git process on the way to the first answer
   * (docs/performance.md, twentieth sitting).
   */
  private readonly ownsRepository: () => Promise<boolean>;
  private readonly queue = new WriteQueue();
  private sequence = 0;
  /** HEAD and its tree after our last commit (saves a git process per write); dropped whenever anything else moves HEAD. */
  private tip: { commit: string; tree: string } | undefined;
  readonly headWhenOpened: string | undefined;

  private constructor(root: string, repo: { top: string; gitDir: string; head?: string } | undefined, remote: Required<GitRemote> | undefined, hasCommit: boolean) {
    this.root = root;
    this.repo = repo && { top: repo.top, gitDir: repo.gitDir };
    this.remote = remote;
    this.ownsRepository = once(() => (repo && hasCommit ? tracksOnlyUnder(repo.top, root) : Promise.resolve(false)));
    // Read with the repository's place, one git process fewer at start (10–20 ms); recovery never moves HEAD.
    this.headWhenOpened = repo?.head;
  }

  /**
   * Open the store at `root`, rolling back a write that a crash left half done. A folder
   * outside any git repository opens too, but refuses writes (503 upstream).
   * @example const store = await GitStore.open('content')
   */
  static async open(root: string, remote?: GitRemote): Promise<GitStore> {
    const absolute = resolve(root);
    const { repo, hasCommit } = await repositoryOf(absolute);
    let target: Required<GitRemote> | undefined;
    if (remote && repo) {
      const branch = remote.branch || (await run('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: absolute })).stdout.trim();
      target = { name: remote.name, branch };
    }
    const store = new GitStore(absolute, repo, target, hasCommit);
    await store.recover();
    return store;
  }

  read(path: string): Promise<string | undefined> {
    return readContentFile(this.root, path);
  }

  list(folder: string): Promise<string[]> {
    return listContentFolder(this.root, folder);
  }

  commit(changes: readonly ContentChange[], unsafe: CommitInfo): Promise<CommitResult> {
    // Every commit path goes through here: whatever the caller built, git gets one safe line.
    const info = safeCommitInfo(unsafe);
    return this.queue.run(async () => {
      const before = this.remote ? (this.tip?.commit ?? (await this.head())) : undefined;
      const { commit } = await this.apply(changes, info);
      if (!this.remote || !before || commit === before) return { commit };
      return this.publish(before, commit);
    });
  }

  pull(): Promise<{ commit: string | undefined; moved: boolean }> {
    return this.queue.run(async () => {
      const remote = this.remote;
      if (!remote) return { commit: this.repo ? await this.head() : undefined, moved: false };
      await this.git(['fetch', '-q', remote.name, remote.branch]);
      const [before, fetched] = (await this.git(['rev-parse', 'HEAD', 'FETCH_HEAD'])).trim().split('\n');
      // Nothing new: the usual case on every interval, answered without touching the work tree.
      if (before === fetched) return { commit: before, moved: false };
      this.tip = undefined;
      // Every acknowledged commit was pushed first, so a local commit the remote lacks was never
      // acknowledged (the process died between commit and push): it goes. Otherwise fast-forward.
      const unpublished = Number((await this.git(['rev-list', '--count', 'FETCH_HEAD..HEAD'])).trim());
      await this.git(unpublished > 0 ? ['reset', '-q', '--keep', 'FETCH_HEAD'] : ['merge', '-q', '--ff-only', 'FETCH_HEAD']);
      const after = await this.head();
      return { commit: after, moved: after !== before };
    });
  }

  async changedPaths(from: string, to: string): Promise<string[] | undefined> {
    if (!this.repo) return undefined;
    try {
      const prefix = relative(this.repo.top, this.root);
      const out = await this.git(['diff', '--name-only', '--no-renames', '-z', from, to, '--', prefix || '.']);
      return out
        .split('\0')
        .filter(Boolean)
        .map((path) => (prefix ? relative(prefix, path) : path));
    } catch {
      return undefined;
    }
  }

  history(path: string, page: { offset: number; limit: number }): Promise<FileCommit[]> {
    assertSafePath(path);
    return this.reading((top) => fileLog(top, this.root, path, page, STORE_COMMITTER.email));
  }

  readAt(versions: readonly { commit: string; path: string }[]): Promise<(string | undefined)[]> {
    return this.reading((top) => readAt(top, this.root, versions));
  }

  log(head: string, range: { after?: string | undefined; limit: number }): Promise<LineCommit[]> {
    return this.reading((top) => lineLog(top, head, range, STORE_COMMITTER.email));
  }

  commitFiles(commits: readonly Pick<LineCommit, 'commit' | 'parent'>[]): Promise<LineFile[][]> {
    return this.reading((top) => commitFiles(top, this.root, commits));
  }

  readBlobs(ids: readonly string[]): Promise<(string | undefined)[]> {
    return this.reading((top) => readBlobs(top, ids));
  }

  async status(): Promise<{ commit: string | undefined; writable: boolean; problem?: string }> {
    if (!this.repo) return { commit: undefined, writable: false, problem: 'the content folder is not inside a git repository' };
    try {
      const commit = (await this.git(['rev-parse', 'HEAD'])).trim();
      await access(this.root, constants.W_OK);
      return { commit, writable: true };
    } catch (error) {
      return { commit: undefined, writable: false, problem: (error as Error).message.split('\n')[0] ?? 'unavailable' };
    }
  }

  // --- internal ---

  /** A read of the repository's history (git-history.ts); git failing is the store being unavailable (503). */
  private async reading<T>(read: (top: string) => Promise<T>): Promise<T> {
    if (!this.repo) throw new StoreUnavailableError('the content folder is not inside a git repository');
    try {
      return await read(this.repo.top);
    } catch (error) {
      throw new StoreUnavailableError('the content history could not be read', { cause: error });
    }
  }

  private async head(): Promise<string> {
    return (await this.git(['rev-parse', 'HEAD'])).trim();
  }

  /**
   * Push `commit` (made on `before`); on a rejected push, fetch, rebase and try again. When it
   * cannot be published the local commit is taken back (`reset --keep` touches only the files
   * it changed) and the write fails: nothing unacknowledged stays.
   */
  private async publish(before: string, commit: string): Promise<CommitResult> {
    const remote = this.remote as Required<GitRemote>;
    // A rebase or a take-back moves HEAD: the cached tip no longer holds.
    const tip = this.tip;
    this.tip = undefined;
    let integrated = false;
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt += 1) {
      try {
        await this.git(['push', '-q', remote.name, `HEAD:refs/heads/${remote.branch}`]);
        if (integrated) return { commit: await this.head(), integrated };
        this.tip = tip;
        return { commit, integrated };
      } catch (error) {
        if (!isRejectedPush(error)) {
          await this.takeBack(before);
          throw new StoreUnavailableError('the content remote cannot be reached', { cause: error });
        }
      }
      await pushPause(attempt);
      try {
        await this.git(['fetch', '-q', remote.name, remote.branch]);
        await this.git(['rebase', '-q', 'FETCH_HEAD']);
        integrated = true;
      } catch (error) {
        await this.git(['rebase', '--abort']).catch(() => undefined);
        await this.takeBack(before);
        // Leave the work tree at the remote's state so the next write starts from it.
        await this.git(['merge', '-q', '--ff-only', 'FETCH_HEAD']).catch(() => undefined);
        if (isConflict(error)) throw new StoreConflictError('the change conflicts with one made on another instance');
        throw new StoreUnavailableError('the content remote cannot be reached', { cause: error });
      }
    }
    await this.takeBack(before);
    await this.git(['merge', '-q', '--ff-only', 'FETCH_HEAD']).catch(() => undefined);
    throw new StoreUnavailableError('the content remote kept moving; the change was not published');
  }

  /** Undo local commits back to `commit` (a rebase may have brought the remote's in between: those stay reachable from the remote). */
  private async takeBack(commit: string): Promise<void> {
    await this.git(['reset', '-q', '--keep', commit]);
  }

  private async apply(changes: readonly ContentChange[], info: CommitInfo): Promise<{ commit: string }> {
    const repo = this.repo;
    if (!repo) throw new StoreUnavailableError('the content folder is not inside a git repository');
    for (const change of changes) assertSafePath(change.path);
    // As bytes: a rollback puts back an image exactly as it was.
    const previous = await Promise.all(changes.map((c) => readContentBytes(this.root, c.path)));
    const repoPaths = changes.map((c) => relative(repo.top, join(this.root, c.path)));
    try {
      await writeDurably(join(repo.gitDir, JOURNAL), JSON.stringify({ paths: repoPaths }));
      for (const change of changes) {
        const file = join(this.root, change.path);
        if (change.text === null) await unlink(file).catch(ifMissing(undefined));
        else await this.writeAtomically(file, change.text);
      }
      const head = (await this.ownsRepository()) ? await this.commitByPlumbing(repoPaths, info) : await this.commitByPorcelain(changes, repoPaths, info);
      await rm(join(repo.gitDir, JOURNAL), { force: true });
      return { commit: head };
    } catch (error) {
      await this.rollback(changes, previous, repoPaths).catch(() => undefined);
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError('the content store could not record the change', { cause: error });
    }
  }

  /**
   * The fast path, for a repository holding nothing but the content (every clone the store
   * owns): stage the paths, write the tree, create the commit and move the branch with
   * compare-and-swap. Two to three times quicker than `git add` + `git commit`, which re-check
   * every file of a large tree. The tree is the whole index, hence only where nothing else lives.
   */
  private async commitByPlumbing(repoPaths: readonly string[], info: CommitInfo): Promise<string> {
    const cached = this.tip;
    this.tip = undefined;
    const [parent, parentTree] = cached ? [cached.commit, cached.tree] : ((await this.git(['rev-parse', 'HEAD', 'HEAD^{tree}'])).trim().split('\n') as [string, string]);
    await this.git(['update-index', '--add', '--remove', '--', ...repoPaths]);
    const tree = (await this.git(['write-tree'])).trim();
    // Writing what is already there changes nothing: no commit, the answer is still right. But a
    // remembered tip may be stale (someone committed in this clone): check HEAD before saying so.
    if (tree === parentTree) {
      if (cached && (await this.head()) !== parent) return this.commitByPlumbing(repoPaths, info);
      this.tip = { commit: parent, tree };
      return parent;
    }
    const commit = (await this.git(['commit-tree', tree, '-p', parent, '-m', info.message], authorEnv(info))).trim();
    try {
      await this.git(['update-ref', '-m', `commit: ${info.message.split('\n')[0]}`, 'HEAD', commit, parent]);
    } catch (error) {
      // HEAD moved under a cached tip (someone committed in this clone): once more from HEAD itself.
      if (cached) return this.commitByPlumbing(repoPaths, info);
      throw error;
    }
    this.tip = { commit, tree };
    return commit;
  }

  /** The general path, for content inside a larger repository (the project's own, in development). */
  private async commitByPorcelain(changes: readonly ContentChange[], repoPaths: readonly string[], info: CommitInfo): Promise<string> {
    const deleted = repoPaths.filter((_, i) => changes[i]?.text === null);
    const written = repoPaths.filter((_, i) => changes[i]?.text !== null);
    if (deleted.length) await this.git(['rm', '-q', '--cached', '--ignore-unmatch', '--', ...deleted]);
    if (written.length) await this.git(['add', '--', ...written]);
    const staged = (await this.git(['diff', '--cached', '--name-only', '-z'])).split('\0').filter(Boolean);
    const ours = new Set(repoPaths);
    // Writing what is already there stages nothing: no commit, the answer is still right.
    if (staged.some((path) => ours.has(path))) {
      // Someone else's staged changes must not ride along: then commit only our paths.
      const onlyOurs = staged.every((path) => ours.has(path));
      await this.git(['commit', '-q', '--no-verify', '-m', info.message, `--author=${authorOf(info).name} <${authorOf(info).email}>`, ...(onlyOurs ? [] : ['--', ...repoPaths])]);
    }
    return (await this.git(['rev-parse', 'HEAD'])).trim();
  }

  private async writeAtomically(file: string, text: string | Uint8Array): Promise<void> {
    await mkdir(dirname(file), { recursive: true });
    const temp = join(dirname(file), `.${this.sequence++}-${process.pid}.tmp`);
    try {
      await writeDurably(temp, text);
      await rename(temp, file);
      await syncFolder(dirname(file));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  private async rollback(changes: readonly ContentChange[], previous: readonly (Uint8Array | undefined)[], repoPaths: readonly string[]): Promise<void> {
    await this.git(['reset', '-q', '--', ...repoPaths]).catch(() => undefined);
    for (const [i, change] of changes.entries()) {
      const file = join(this.root, change.path);
      const before = previous[i];
      if (before === undefined) await unlink(file).catch(ifMissing(undefined));
      else await writeFile(file, before);
    }
    if (this.repo) await rm(join(this.repo.gitDir, JOURNAL), { force: true });
  }

  /** Undo a write a crash interrupted: its files go back to the last commit, temp files go. */
  private async recover(): Promise<void> {
    if (!this.repo) return;
    const journalPath = join(this.repo.gitDir, JOURNAL);
    let journal: { paths: string[] };
    try {
      journal = JSON.parse(await readFile(journalPath, 'utf8')) as { paths: string[] };
    } catch {
      return;
    }
    // Only this process writes here, so a lock file left behind belongs to the dead one.
    await rm(join(this.repo.gitDir, 'index.lock'), { force: true });
    for (const path of journal.paths) {
      await this.git(['reset', '-q', '--', path]).catch(() => undefined);
      const tracked = await this.git(['cat-file', '-e', `HEAD:${path}`]).then(
        () => true,
        () => false,
      );
      if (tracked) await this.git(['checkout', '-q', 'HEAD', '--', path]);
      else await unlink(join(this.repo.top, path)).catch(ifMissing(undefined));
      const folder = dirname(join(this.repo.top, path));
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (/^\.\d+-\d+\.tmp$/.test(name)) await rm(join(folder, name), { force: true });
      }
    }
    await rm(journalPath, { force: true });
  }

  private async git(args: readonly string[], env?: Record<string, string>): Promise<string> {
    const top = this.repo?.top ?? this.root;
    // A split index rewrites only the entries that changed, not the whole (MBs for 15,000 files);
    // only in clones the store owns, never in a developer's repository.
    const split = (await this.ownsRepository()) ? ['-c', 'core.splitIndex=true'] : [];
    const { stdout } = await run('git', [...GIT_SETTINGS, ...split, '-c', `user.name=${STORE_COMMITTER.name}`, '-c', `user.email=${STORE_COMMITTER.email}`, ...args], {
      cwd: top,
      maxBuffer: 16 * 1024 * 1024,
      ...(env ? { env: { ...process.env, ...env } } : {}),
    });
    return stdout;
  }
}

// --- internal ---

async function writeDurably(path: string, text: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFolder(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Git refused the push because the remote has commits this clone lacks. */
function isRejectedPush(error: unknown): boolean {
  return /\[rejected\]|non-fast-forward|fetch first|failed to update ref|cannot lock ref/i.test(String((error as { stderr?: unknown }).stderr ?? ''));
}

function isConflict(error: unknown): boolean {
  return /conflict|could not apply/i.test(`${String((error as { stderr?: unknown }).stderr ?? '')}${String((error as { stdout?: unknown }).stdout ?? '')}`);
}

/**
 * The commit a content folder's files are exactly as of (HEAD, with no change in the folder),
 * or undefined (not a repository, or files changed since).
 */
export async function committedStateOf(root: string): Promise<string | undefined> {
  try {
    const { stdout: changes } = await run('git', ['status', '--porcelain', '--untracked-files=all', '--', '.'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    if (changes.trim() !== '') return undefined;
    return (await run('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * The repository holding `root` (none outside one), and whether it has a commit: one git
 * process for both, as each costs 20-30 ms at start on a small VM (`--verify -q HEAD` fails
 * quietly without a commit, after printing the rest).
 */
async function repositoryOf(root: string): Promise<{ repo: { top: string; gitDir: string; head?: string } | undefined; hasCommit: boolean }> {
  const [stdout, hasCommit] = await run('git', ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--verify', '-q', 'HEAD'], { cwd: root }).then(
    (done) => [done.stdout, true] as const,
    (error: { stdout?: unknown }) => [typeof error.stdout === 'string' ? error.stdout : '', false] as const,
  );
  const [top, gitDir, head] = stdout.trim().split('\n');
  return { repo: top && gitDir ? { top, gitDir, ...(hasCommit && head ? { head } : {}) } : undefined, hasCommit };
}

/** Whether the repository at `top` (which has a commit) tracks only files under `root`. */
async function tracksOnlyUnder(top: string, root: string): Promise<boolean> {
  try {
    const prefix = relative(top, root);
    if (!prefix) return true;
    const outside = await run('git', ['ls-files', '-z', '--', '.', `:(exclude)${prefix}`], { cwd: top, maxBuffer: 64 * 1024 * 1024 });
    return outside.stdout === '';
  } catch {
    return false;
  }
}

/** The author of a commit made with `commit-tree`, as environment variables. */
function authorEnv(info: CommitInfo): Record<string, string> {
  const { name, email } = authorOf(info);
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email };
}
