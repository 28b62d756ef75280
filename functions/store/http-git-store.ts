/**
 * The content store for places with no work tree of their own (a serverless function): the
 * same interface as git-store.ts, committing through the git host over HTTPS (smart HTTP, so
 * any host: GitHub, GitLab, Gitea, Bitbucket, `git http-backend`), in pure JavaScript
 * (isomorphic-git). The repository is cloned once (the whole branch: history and readAt need
 * its past) into a folder under /tmp; `root` is the content folder in it, kept exactly as of
 * the last commit the remote confirmed.
 *
 * A write builds its commit from objects alone (no index), pushes it, and only then updates
 * the files: a refused write leaves nothing behind. A push that is not a fast-forward fetches
 * and, when the remote's new commits left the written files as they were, builds the commit
 * again on the remote's tip (a rebase) and pushes again; when they changed one of them the
 * write fails with StoreConflictError and the files move to the remote's tip. Authorship is
 * git-store's: the actor is the author, STORE_COMMITTER the committer.
 */
import fs from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import git, { type HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
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
import { GitObjects, readAt } from './git-objects.ts';
import { pushCommit } from './smart-http-push.ts';
import { authorOf, listContentFolder, pushPause, readContentFile, safeCommitInfo, STORE_COMMITTER } from './store-rules.ts';
import { WriteQueue } from './write-queue.ts';
import { ifMissing } from '../../src/missing-file.ts';

/** Where the content lives: a repository reached over HTTP(S). */
export interface HttpGitRemote {
  /** The repository's clone URL, without credentials (`https://github.com/acme/deals-content.git`). */
  url: string;
  /** The branch written to; by default the remote's default branch. */
  branch?: string | undefined;
  /** Sent as the password of HTTP Basic auth; none: the remote must allow anonymous pushes. */
  token?: string | undefined;
  /** Sent with the token: `x-access-token` (GitHub) by default; GitLab takes `oauth2`, Bitbucket `x-token-auth`, Gitea any. */
  username?: string | undefined;
  /** The content folder inside the repository; `content` by default, '' for its root. */
  path?: string | undefined;
  /** An empty folder for the clone; by default a new one under the system's temp folder. */
  dir?: string | undefined;
  /** The longest one HTTP request may take (ms); 30 s by default. */
  timeoutMs?: number | undefined;
  /** How long a write keeps retrying a refused push (ms); 8 s by default, within a function's usual 10 s. */
  retryMs?: number | undefined;
}

export class HttpGitStore implements ContentStore {
  readonly root: string;
  private readonly dir: string;
  private readonly remote: HttpGitRemote;
  private readonly prefix: string;
  private readonly objects: GitObjects;
  private readonly http: HttpClient;
  private readonly queue = new WriteQueue();
  private branch: string | undefined;
  /** The commit the files under `root` are exactly as of: the last one the remote confirmed. */
  private head: string | undefined;
  /** Why the clone failed, until one succeeds. */
  private problem: string | undefined;

  private constructor(dir: string, remote: HttpGitRemote) {
    this.dir = dir;
    this.remote = remote;
    this.prefix = (remote.path ?? 'content').replace(/^\.?\/+|\/+$/g, '');
    this.root = join(dir, this.prefix);
    this.branch = remote.branch;
    this.objects = new GitObjects(dir, this.prefix);
    const timeout = remote.timeoutMs ?? 30_000;
    this.http = { request: (request) => nodeHttp.request({ ...request, signal: request.signal ?? AbortSignal.timeout(timeout) }) };
  }

  /**
   * Clone the remote. A remote that cannot be reached now does not stop the opening: `status`
   * says why, and the next write or pull tries again.
   * @example const store = await HttpGitStore.open({ url: 'https://github.com/acme/content.git', token })
   */
  static async open(remote: HttpGitRemote): Promise<HttpGitStore> {
    const store = new HttpGitStore(remote.dir ?? (await mkdtemp(join(tmpdir(), 'deals-content-'))), remote);
    await store.queue.run(() => store.ready()).catch(() => undefined);
    return store;
  }

  read(path: string): Promise<string | undefined> {
    return readContentFile(this.root, path);
  }

  list(folder: string): Promise<string[]> {
    return listContentFolder(this.root, folder);
  }

  commit(changes: readonly ContentChange[], unsafe: CommitInfo): Promise<CommitResult> {
    const info = safeCommitInfo(unsafe);
    for (const change of changes) assertSafePath(change.path);
    return this.queue.run(() => this.unavailableOnError('the content store could not record the change', () => this.publish(changes, info)));
  }

  pull(): Promise<{ commit: string | undefined; moved: boolean }> {
    return this.queue.run(async () => {
      await this.ready();
      const before = this.head;
      const tip = await this.fetchTip();
      if (tip !== before) await this.moveTo(tip);
      return { commit: tip, moved: tip !== before };
    });
  }

  async status(): Promise<{ commit: string | undefined; writable: boolean; problem?: string }> {
    if (this.head) return { commit: this.head, writable: true };
    return { commit: undefined, writable: false, problem: this.problem ?? 'the content repository is being cloned' };
  }

  async changedPaths(from: string, to: string): Promise<string[] | undefined> {
    try {
      const [a, b] = await Promise.all([this.objects.contentTree(from), this.objects.contentTree(to)]);
      return (await this.objects.diff(a, b)).map((file) => file.path);
    } catch {
      return undefined;
    }
  }

  history(path: string, page: { offset: number; limit: number }): Promise<FileCommit[]> {
    assertSafePath(path);
    return this.reading((head) => this.objects.fileLog(head, path, page, STORE_COMMITTER.email));
  }

  readAt(versions: readonly { commit: string; path: string }[]): Promise<(string | undefined)[]> {
    return this.reading(() => readAt(this.objects, versions));
  }

  log(head: string, range: { after?: string | undefined; limit: number }): Promise<LineCommit[]> {
    return this.reading(() => this.objects.lineLog(head, range, STORE_COMMITTER.email));
  }

  commitFiles(commits: readonly Pick<LineCommit, 'commit' | 'parent'>[]): Promise<LineFile[][]> {
    return this.reading(() => Promise.all(commits.map((c) => this.objects.commitFiles(c))));
  }

  readBlobs(ids: readonly string[]): Promise<(string | undefined)[]> {
    return this.reading(() => Promise.all(ids.map((id) => this.objects.blobText(id))));
  }

  /** Remove the clone (tests; a function instance simply goes). */
  async dispose(): Promise<void> {
    await this.queue.run(() => rm(this.dir, { recursive: true, force: true }));
  }

  // --- internal ---

  /** Commit `changes` on the last confirmed commit and push; on a refused push, rebuild on the remote's tip and push again. */
  private async publish(changes: readonly ContentChange[], info: CommitInfo): Promise<CommitResult> {
    await this.ready();
    const edits = new Map<string, string | null>();
    for (const change of changes) {
      edits.set(
        this.repoPath(change.path),
        change.text === null ? null : await git.writeBlob({ fs, dir: this.dir, blob: typeof change.text === 'string' ? Buffer.from(change.text, 'utf8') : change.text }),
      );
    }
    const when = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    const people = { author: { ...authorOf(info), ...when }, committer: { ...STORE_COMMITTER, ...when } };
    let base = this.head as string;
    let integrated = false;
    const giveUpAt = Date.now() + (this.remote.retryMs ?? 8_000);
    for (let attempt = 1; ; attempt += 1) {
      const parent = (await this.objects.readCommit(base)).commit.tree;
      const trees: string[] = [];
      const tree = await this.objects.editRoot(parent, edits, trees);
      // Writing what is already there changes nothing: no commit, the answer is still right.
      if (tree === parent) {
        await this.moveTo(base);
        return { commit: base, integrated };
      }
      const commit = await git.writeCommit({ fs, dir: this.dir, commit: { message: `${info.message}\n`, tree, parent: [base], ...people } });
      const blobs = [...edits.values()].filter((blob): blob is string => blob !== null);
      const refusal = await this.push(base, commit, [...blobs, ...trees, commit]);
      if (refusal === undefined) {
        await this.moveTo(commit);
        return { commit, integrated };
      }
      // Bounded by time rather than attempts (git-store: 12): a writer that must fetch loses races to
      // ones that just pushed (theirs need no fetch), so under a burst it may need more turns.
      if (Date.now() >= giveUpAt) throw new StoreUnavailableError('the content remote kept moving; the change was not published');
      await pushPause(Math.min(attempt, 12));
      const tip = await this.fetchTip();
      // Refused although nobody else pushed: a protected branch, a hook; retrying will not help.
      if (tip === base) throw new StoreUnavailableError(`the content remote refused the push: ${refusal}`);
      if (await this.changedUnderUs(base, tip, edits)) {
        await this.moveTo(tip);
        throw new StoreConflictError('the change conflicts with one made elsewhere');
      }
      base = tip;
      integrated = true;
    }
  }

  /** Whether a file of the write differs between `base` and `tip` (and is not already what the write makes it). */
  private async changedUnderUs(base: string, tip: string, edits: ReadonlyMap<string, string | null>): Promise<boolean> {
    for (const [repoPath, blob] of edits) {
      const path = this.prefix ? repoPath.slice(this.prefix.length + 1) : repoPath;
      const [before, now] = await Promise.all([this.objects.entryAt(base, path), this.objects.entryAt(tip, path)]);
      if ((before?.oid !== now?.oid || before?.mode !== now?.mode) && (now?.oid ?? null) !== blob) return true;
    }
    return false;
  }

  /** Push `commit` (made on `base`, adding `objects`) to the branch; the remote's reason when it refused, undefined when it took it. */
  private async push(base: string, commit: string, objects: readonly string[]): Promise<string | undefined> {
    const remote = { url: this.remote.url.replace(/\/+$/, ''), http: this.http, headers: () => this.headers() };
    const pack = async () => (await git.packObjects({ fs, dir: this.dir, oids: [...new Set(objects)] })).packfile as Uint8Array;
    try {
      return await pushCommit(remote, `refs/heads/${this.branch as string}`, base, commit, pack);
    } catch (error) {
      throw unreachable(error);
    }
  }

  /** Fetch the branch; its commit on the remote. */
  private async fetchTip(): Promise<string> {
    let fetched: string | null;
    try {
      ({ fetchHead: fetched } = await git.fetch({ fs, http: this.http, dir: this.dir, url: this.remote.url, ref: this.branch, singleBranch: true, tags: false, headers: this.headers() }));
    } catch (error) {
      throw unreachable(error);
    }
    if (!fetched) throw new StoreUnavailableError(`the content remote has no branch ${this.branch ?? ''}`);
    return fetched;
  }

  /** Clone the remote unless that is done: the whole branch, files written from its tip. */
  private async ready(): Promise<void> {
    if (this.head) return;
    try {
      await rm(join(this.dir, '.git'), { recursive: true, force: true });
      await rm(this.root, { recursive: true, force: true });
      await git.clone({ fs, http: this.http, dir: this.dir, url: this.remote.url, ref: this.branch, singleBranch: true, noCheckout: true, noTags: true, headers: this.headers() });
      this.branch ??= (await git.currentBranch({ fs, dir: this.dir })) ?? undefined;
      await mkdir(this.root, { recursive: true });
      await this.moveTo(await git.resolveRef({ fs, dir: this.dir, ref: 'HEAD' }));
      this.problem = undefined;
    } catch (error) {
      const failure = error instanceof StoreUnavailableError ? error : unreachable(error);
      this.problem = failure.message;
      throw failure;
    }
  }

  /** Bring the files under `root` from `head` to `target` (only those that differ), then make it the head. */
  private async moveTo(target: string): Promise<void> {
    if (target === this.head) return;
    const [from, to] = await Promise.all([this.head ? this.objects.contentTree(this.head) : undefined, this.objects.contentTree(target)]);
    for (const { path, after } of await this.objects.diff(from, to)) {
      const file = join(this.root, path);
      if (after?.type === 'blob') await replaceFile(file, await this.objects.readBytes(after.oid));
      else await removeFile(file, this.root);
    }
    // The local branch names the head too: a fetch offers it to the remote as what this clone has.
    if (this.branch) await git.writeRef({ fs, dir: this.dir, ref: `refs/heads/${this.branch}`, value: target, force: true });
    this.head = target;
  }

  private async reading<T>(read: (head: string) => Promise<T>): Promise<T> {
    const head = this.head;
    if (!head) throw new StoreUnavailableError(this.problem ?? 'the content repository is being cloned');
    return this.unavailableOnError('the content history could not be read', () => read(head));
  }

  private async unavailableOnError<T>(message: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError(message, { cause: error });
    }
  }

  private repoPath(path: string): string {
    return this.prefix ? `${this.prefix}/${path}` : path;
  }

  /** Basic auth with the token as password, on every request (no 401 round trip first); a new object each time, as isomorphic-git adds to it. */
  private headers(): Record<string, string> {
    const { token, username = 'x-access-token' } = this.remote;
    return token ? { Authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}` } : {};
  }
}

// --- internal ---

/** The remote failed (network, auth, server): 503 upstream. The message names no credential; the cause is isomorphic-git's error. */
function unreachable(error: unknown): StoreUnavailableError {
  const status = (error as { data?: { statusCode?: number } }).data?.statusCode;
  if (status === 401 || status === 403) return new StoreUnavailableError(`the content remote refused the credentials (HTTP ${status})`, { cause: error });
  return new StoreUnavailableError(status ? `the content remote answered HTTP ${status}` : 'the content remote cannot be reached', { cause: error });
}

/**
 * Replace a file of the clone (temp file, rename: readers see the old or the new text). Not
 * fsynced: the clone is a copy of the remote, made again after a restart.
 */
async function replaceFile(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, bytes);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Remove a file of the clone, and the folders it leaves empty (up to `root`), as a git checkout does. */
async function removeFile(file: string, root: string): Promise<void> {
  await unlink(file).catch(ifMissing(undefined));
  for (let folder = dirname(file); folder.startsWith(`${root}/`); folder = dirname(folder)) {
    if ((await readdir(folder).catch(() => ['?'])).length > 0) break;
    await rmdir(folder).catch(() => undefined);
  }
}
