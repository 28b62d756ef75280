/**
 * The embedded content store: a folder inside a local git repository. Each write is applied
 * atomically (temp file, fsync, rename) and recorded as one commit with the actor as author;
 * writes run one at a time. A journal in `.git/` names the files of the write in flight, so a
 * process killed mid-write is rolled back to the last commit on the next start.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { assertSafePath, StoreUnavailableError, type CommitInfo, type ContentChange, type ContentStore } from './content-store.ts';
import { WriteQueue } from './write-queue.ts';

const run = promisify(execFile);
const JOURNAL = 'deals-store-journal.json';
/** Git itself fsyncs what a commit writes: objects, refs and the index. */
const GIT_SETTINGS = ['-c', 'core.fsync=committed,index', '-c', 'core.fsyncMethod=fsync', '-c', 'commit.gpgsign=false'];

export class GitStore implements ContentStore {
  readonly root: string;
  private readonly repo: { top: string; gitDir: string } | undefined;
  private readonly queue = new WriteQueue();
  private sequence = 0;

  private constructor(root: string, repo: { top: string; gitDir: string } | undefined) {
    this.root = root;
    this.repo = repo;
  }

  /**
   * Open the store at `root`, rolling back a write that a crash left half done. A folder
   * outside any git repository opens too, but refuses writes (503 upstream).
   * @example const store = await GitStore.open('content')
   */
  static async open(root: string): Promise<GitStore> {
    const absolute = resolve(root);
    let repo: { top: string; gitDir: string } | undefined;
    try {
      const { stdout } = await run('git', ['rev-parse', '--show-toplevel', '--absolute-git-dir'], { cwd: absolute });
      const [top, gitDir] = stdout.trim().split('\n');
      if (top && gitDir) repo = { top, gitDir };
    } catch {
      repo = undefined;
    }
    const store = new GitStore(absolute, repo);
    await store.recover();
    return store;
  }

  async read(path: string): Promise<string | undefined> {
    assertSafePath(path);
    try {
      return await readFile(join(this.root, path), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async list(folder: string): Promise<string[]> {
    try {
      return (await readdir(join(this.root, folder))).filter((name) => !name.startsWith('.')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  commit(changes: readonly ContentChange[], info: CommitInfo): Promise<{ commit: string }> {
    return this.queue.run(() => this.apply(changes, info));
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

  private async apply(changes: readonly ContentChange[], info: CommitInfo): Promise<{ commit: string }> {
    const repo = this.repo;
    if (!repo) throw new StoreUnavailableError('the content folder is not inside a git repository');
    for (const change of changes) assertSafePath(change.path);
    const previous = await Promise.all(changes.map((c) => this.read(c.path)));
    const repoPaths = changes.map((c) => relative(repo.top, join(this.root, c.path)));
    try {
      await writeDurably(join(repo.gitDir, JOURNAL), JSON.stringify({ paths: repoPaths }));
      for (const change of changes) {
        const file = join(this.root, change.path);
        if (change.text === null) await unlink(file).catch(ignoreMissing);
        else await this.writeAtomically(file, change.text);
      }
      const deleted = repoPaths.filter((_, i) => changes[i]?.text === null);
      const written = repoPaths.filter((_, i) => changes[i]?.text !== null);
      if (deleted.length) await this.git(['rm', '-q', '--cached', '--ignore-unmatch', '--', ...deleted]);
      if (written.length) await this.git(['add', '--', ...written]);
      const staged = (await this.git(['diff', '--cached', '--name-only', '-z'])).split('\0').filter(Boolean);
      const ours = new Set(repoPaths);
      // Writing what is already there stages nothing: no commit, the answer is still right.
      if (staged.some((path) => ours.has(path))) {
        // A plain commit is several times faster than one limited to paths (no temporary index);
        // it is only safe when nothing else is staged, as in a repository the store owns.
        const onlyOurs = staged.every((path) => ours.has(path));
        await this.git(['commit', '-q', '--no-verify', '-m', info.message, `--author=${authorOf(info)}`, ...(onlyOurs ? [] : ['--', ...repoPaths])]);
      }
      const head = (await this.git(['rev-parse', 'HEAD'])).trim();
      await rm(join(repo.gitDir, JOURNAL), { force: true });
      return { commit: head };
    } catch (error) {
      await this.rollback(changes, previous, repoPaths).catch(() => undefined);
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError('the content store could not record the change', { cause: error });
    }
  }

  private async writeAtomically(file: string, text: string): Promise<void> {
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

  private async rollback(changes: readonly ContentChange[], previous: readonly (string | undefined)[], repoPaths: readonly string[]): Promise<void> {
    await this.git(['reset', '-q', '--', ...repoPaths]).catch(() => undefined);
    for (const [i, change] of changes.entries()) {
      const file = join(this.root, change.path);
      const before = previous[i];
      if (before === undefined) await unlink(file).catch(ignoreMissing);
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
      const tracked = await this.git(['cat-file', '-e', `HEAD:${path}`]).then(() => true, () => false);
      if (tracked) await this.git(['checkout', '-q', 'HEAD', '--', path]);
      else await unlink(join(this.repo.top, path)).catch(ignoreMissing);
      const folder = dirname(join(this.repo.top, path));
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (/^\.\d+-\d+\.tmp$/.test(name)) await rm(join(folder, name), { force: true });
      }
    }
    await rm(journalPath, { force: true });
  }

  private async git(args: readonly string[]): Promise<string> {
    const top = this.repo?.top ?? this.root;
    const { stdout } = await run('git', [...GIT_SETTINGS, '-c', 'user.name=Deals catalog', '-c', 'user.email=catalog@localhost', ...args], {
      cwd: top,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  }
}

// --- internal ---

async function writeDurably(path: string, text: string): Promise<void> {
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

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

/** `Name <email>` with the characters git would misread removed. */
function authorOf(info: CommitInfo): string {
  const clean = (text: string) => text.replace(/[<>\n\r]/g, '').trim();
  return `${clean(info.author.name) || 'Anonymous'} <${clean(info.author.email) || 'unknown@localhost'}>`;
}
