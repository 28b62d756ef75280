/**
 * The content store over HTTPS (functions/store/http-git-store.ts) against a real git host:
 * `git http-backend` behind a small HTTP server on 127.0.0.1 with a token (helpers/git-http-server.ts).
 * What lands on the server is checked with git itself: author, committer, message, files; one
 * commit for several files; writers in several processes (different files: every commit lands;
 * one file: one wins, the others are told of the conflict); a wrong token, a dropped push and a
 * stopped server are 503s upstream with nothing left behind; a hand commit to the same file is a
 * conflict; and history, readAt, changedPaths and the first-parent line (log) answer what
 * git-history.ts reads with git.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { StoreConflictError, StoreUnavailableError, type ContentStore, type LineFile } from '../../functions/store/content-store.ts';
import { commitFiles, fileLog, lineLog, readAt, readBlobs } from '../../functions/store/git-history.ts';
import { HttpGitStore, type HttpGitRemote } from '../../functions/store/http-git-store.ts';
import { STORE_COMMITTER } from '../../functions/store/store-rules.ts';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.ts';

const run = promisify(execFile);
const TOKEN = 'tok-3f9a0c51e2-secret';
const ann = { name: 'Ann Admin', email: 'ann@example.com' };

let work: string;
let host: GitHttpServer;
let url: string;
const bare = (): string => join(work, 'remote.git');
const stores: HttpGitStore[] = [];

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.com', ...args], { cwd, stdio: 'pipe' })
    .toString('utf8')
    .trim();
const tip = (): string => git(bare(), 'rev-parse', 'main');
const remoteText = (path: string): string | undefined => {
  try {
    return execFileSync('git', ['show', `main:content/${path}`], { cwd: bare(), stdio: 'pipe' }).toString('utf8');
  } catch {
    return undefined;
  }
};

async function open(options: Partial<HttpGitRemote> = {}): Promise<HttpGitStore> {
  const store = await HttpGitStore.open({ url, token: TOKEN, ...options });
  stores.push(store);
  return store;
}

/** Every file under the store's content folder with its text, and the same read from the remote's tip with git. */
async function filesOnDisk(store: ContentStore, folder = ''): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(join(store.root, folder), { withFileTypes: true })) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(files, await filesOnDisk(store, path));
    else files[path] = (await store.read(path)) as string;
  }
  return files;
}
function filesOnRemote(): Record<string, string> {
  const paths = git(bare(), 'ls-tree', '-r', '--name-only', 'main', '--', 'content').split('\n').filter(Boolean);
  return Object.fromEntries(paths.map((path) => [relative('content', path), remoteText(relative('content', path)) as string]));
}

/** The remote's branch is at `commit`, and the store exactly there too: its head and every file. */
async function expectAtRemote(store: ContentStore, commit: string): Promise<void> {
  expect(tip()).toBe(commit);
  expect(await store.status()).toEqual({ commit, writable: true });
  expect(await filesOnDisk(store)).toEqual(filesOnRemote());
}

/** A hand commit pushed to the remote by git from a clone of its own. */
function handCommit(path: string, text: string | null, message: string): string {
  const clone = join(work, `hand-${Math.random().toString(36).slice(2)}`);
  git(work, 'clone', '-q', bare(), clone);
  const file = join(clone, 'content', path);
  if (text === null) git(clone, 'rm', '-q', `content/${path}`);
  else {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text);
    git(clone, 'add', '-A');
  }
  git(clone, 'commit', '-q', '-m', message);
  git(clone, 'push', '-q', 'origin', 'main');
  return git(clone, 'rev-parse', 'HEAD');
}

/** A merge pushed by hand: `path` changed on a side branch, another file on main, joined with a merge commit. */
function handMerge(path: string, text: string): void {
  const clone = join(work, `merge-${Math.random().toString(36).slice(2)}`);
  git(work, 'clone', '-q', bare(), clone);
  git(clone, 'checkout', '-q', '-b', 'side');
  writeFileSync(join(clone, 'content', path), text);
  git(clone, 'commit', '-qam', `Side change of ${path}`);
  git(clone, 'checkout', '-q', 'main');
  writeFileSync(join(clone, 'content', 'deals', 'main-side.md'), `on main while ${path} changed on a side\n`);
  git(clone, 'add', '-A');
  git(clone, 'commit', '-qm', 'Main change');
  git(clone, 'merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
  git(clone, 'push', '-q', 'origin', 'main');
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-http-store-'));
  const seed = join(work, 'seed');
  await mkdir(join(seed, 'content', 'deals'), { recursive: true });
  await mkdir(join(seed, 'content', 'startups'), { recursive: true });
  await writeFile(join(seed, 'content', 'deals', 'first.md'), '---\ntitle: First\nvalue: one\n---\nThe first deal.\n');
  await writeFile(join(seed, 'content', 'startups', 'acme.md'), '---\nname: Acme\n---\n');
  await writeFile(join(seed, 'README.md'), 'Content of the catalog.\n');
  git(seed, 'init', '-q', '-b', 'main');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'Start');
  git(work, 'clone', '-q', '--bare', seed, bare());
  host = await startGitHttpServer(work, TOKEN);
  url = `${host.url}/remote.git`;
});

afterAll(async () => {
  for (const store of stores) await store.dispose();
  await host?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('commits reach the git host', () => {
  test('create, update and delete: one commit each on the remote, the actor as author, the store as committer, the files as written', async () => {
    const store = await open();
    expect(await store.status()).toEqual({ commit: tip(), writable: true });
    expect(await filesOnDisk(store)).toEqual(filesOnRemote());

    const created = await store.commit([{ path: 'deals/second.md', text: '---\ntitle: Second\n---\n' }], { message: 'Create deal second', author: ann });
    expect(created).toEqual({ commit: tip(), integrated: false });
    expect(git(bare(), 'log', '-1', '--format=%an|%ae|%cn|%ce|%s', 'main')).toBe(`Ann Admin|ann@example.com|${STORE_COMMITTER.name}|${STORE_COMMITTER.email}|Create deal second`);
    expect(git(bare(), 'show', '--name-status', '--format=', 'main')).toBe('A\tcontent/deals/second.md');
    expect(remoteText('deals/second.md')).toBe('---\ntitle: Second\n---\n');

    const updated = await store.commit([{ path: 'deals/second.md', text: '---\ntitle: Second, better\n---\n' }], { message: 'Update deal second', author: ann });
    expect(git(bare(), 'rev-parse', 'main~1')).toBe(created.commit);
    expect(updated.commit).toBe(tip());
    expect(remoteText('deals/second.md')).toBe('---\ntitle: Second, better\n---\n');

    await store.commit([{ path: 'deals/second.md', text: null }], {
      message: 'Delete deal second\nCo-authored-by: Mallory <m@example.com>',
      author: { name: 'Ann <x>\nAdmin', email: 'ann@example.com' },
    });
    expect(remoteText('deals/second.md')).toBeUndefined();
    // One safe line, as git-store makes it (SECURITY: no trailer from user text).
    expect(git(bare(), 'log', '-1', '--format=%an|%B', 'main')).toBe('Ann x Admin|Delete deal second Co-authored-by: Mallory <m@example.com>');
    expect(await store.read('deals/second.md')).toBeUndefined();
    expect(await store.list('deals')).toEqual(['first.md']);
    expect(await filesOnDisk(store)).toEqual(filesOnRemote());

    // Writing what is already there makes no commit.
    const before = tip();
    expect((await store.commit([{ path: 'deals/first.md', text: remoteText('deals/first.md') as string }], { message: 'Same', author: ann })).commit).toBe(before);
    expect(tip()).toBe(before);
  });

  test('several files in one write are one commit (added, changed, deleted together), and a folder emptied goes', async () => {
    const store = await open();
    const before = Number(git(bare(), 'rev-list', '--count', 'main'));
    await store.commit(
      [
        { path: 'deals/multi-a.md', text: 'a\n' },
        { path: 'deals/multi-b.md', text: 'b\n' },
        { path: 'startups/acme.md', text: null },
        { path: 'deals/first.md', text: '---\ntitle: First\nvalue: two\n---\nThe first deal.\n' },
      ],
      { message: 'Bulk', author: ann },
    );
    expect(Number(git(bare(), 'rev-list', '--count', 'main'))).toBe(before + 1);
    expect(git(bare(), 'show', '--name-status', '--format=', 'main').split('\n').sort()).toEqual(
      ['A\tcontent/deals/multi-a.md', 'A\tcontent/deals/multi-b.md', 'D\tcontent/startups/acme.md', 'M\tcontent/deals/first.md'].sort(),
    );
    expect(git(bare(), 'ls-tree', '--name-only', 'main', 'content/')).not.toContain('startups');
    expect(await store.list('startups')).toEqual([]);
    expect(git(bare(), 'fsck', '--strict', '--no-dangling')).toBe('');
  });

  test('bytes (a logo image) are committed exactly as given, every byte value included', async () => {
    const store = await open();
    const bytes = new Uint8Array(512).map((_, i) => (i * 7 + 0x80) % 256);
    await store.commit([{ path: 'logos/deals/first.webp', text: bytes }], { message: 'Logo', author: ann });
    const pushed = execFileSync('git', ['show', 'main:content/logos/deals/first.webp'], { cwd: bare() });
    expect(Buffer.compare(pushed, Buffer.from(bytes))).toBe(0);
    expect(Buffer.compare(await readFile(join(store.root, 'logos/deals/first.webp')), Buffer.from(bytes))).toBe(0);
  });
});

describe('optimistic concurrency', () => {
  test('a hand commit to another file is brought in under the write (integrated); to the same file it is a conflict, with the store left at the remote', async () => {
    const store = await open();
    const other = handCommit('deals/hand.md', 'by hand\n', 'Hand edit');
    const result = await store.commit([{ path: 'deals/multi-a.md', text: 'a2\n' }], { message: 'After a hand edit', author: ann });
    expect(result).toEqual({ commit: tip(), integrated: true });
    expect(git(bare(), 'rev-parse', 'main~1')).toBe(other);
    expect(await store.read('deals/hand.md')).toBe('by hand\n');

    const hand = handCommit('deals/first.md', 'changed by hand\n', 'Hand edit of first');
    const refused = store.commit([{ path: 'deals/first.md', text: 'changed by the admin\n' }], { message: 'Conflicting', author: ann });
    await expect(refused).rejects.toBeInstanceOf(StoreConflictError);
    await expectAtRemote(store, hand);
    // The next write starts from the remote's tip.
    await store.commit([{ path: 'deals/first.md', text: 'after the conflict\n' }], { message: 'Again', author: ann });
    expect(remoteText('deals/first.md')).toBe('after the conflict\n');
  });

  test('the same change made again after it landed (a retried request) is no conflict and no second commit', async () => {
    const store = await open();
    const landed = handCommit('deals/retried.md', 'same text\n', 'Landed before');
    expect(await store.commit([{ path: 'deals/retried.md', text: 'same text\n' }], { message: 'Retry', author: ann })).toEqual({ commit: landed, integrated: true });
    expect(tip()).toBe(landed);
  });

  /** Run one writer process per entry, all started together; their printed results. */
  async function writers(plans: { name: string; writes: { path: string; text: string }[] }[]): Promise<{ path: string; commit?: string; integrated?: boolean; error?: string }[][]> {
    const children = plans.map((plan) =>
      spawn(process.execPath, [join(import.meta.dirname, '..', 'helpers', 'git-http-writer.ts'), JSON.stringify({ url, token: TOKEN, ...plan })], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    const outputs = children.map((child) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      return {
        ready: new Promise<void>((resolve) => child.stdout.on('data', () => text.includes('ready\n') && resolve())),
        done: new Promise<string>((resolve) => child.on('exit', () => resolve(text))),
      };
    });
    await Promise.all(outputs.map((o) => o.ready));
    for (const child of children) child.stdin.end('go\n');
    const texts = await Promise.all(outputs.map((o) => o.done));
    return texts.map((text) =>
      text
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { path: string; commit?: string; error?: string }),
    );
  }

  test('4 processes, 5 writes each to different files, at once: all 20 commits land, none lost, history linear', async () => {
    const before = tip();
    const plans = ['w1', 'w2', 'w3', 'w4'].map((name) => ({ name, writes: Array.from({ length: 5 }, (_, i) => ({ path: `deals/${name}-${i}.md`, text: `${name} ${i}\n` })) }));
    const results = await writers(plans);
    expect(results.flat().filter((r) => r.error)).toEqual([]);
    expect(results.flat()).toHaveLength(20);
    expect(results.flat().some((r) => r.integrated)).toBe(true);
    const commits = git(bare(), 'rev-list', `${before}..main`).split('\n');
    expect(commits).toHaveLength(20);
    expect(new Set(results.flat().map((r) => r.commit))).toEqual(new Set(commits));
    expect(git(bare(), 'rev-list', '--merges', 'main')).toBe('');
    for (const plan of plans) for (const { path, text } of plan.writes) expect(remoteText(path)).toBe(text);
  }, 120_000);

  test('4 processes write one file at once: one wins, the others get StoreConflictError, and the remote holds the winner', async () => {
    const before = tip();
    const results = (await writers(['x1', 'x2', 'x3', 'x4'].map((name) => ({ name, writes: [{ path: 'deals/contested.md', text: `${name} was here\n` }] })))).flat();
    const winners = results.filter((r) => r.commit);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => r.error)).toEqual(['StoreConflictError', 'StoreConflictError', 'StoreConflictError']);
    expect(git(bare(), 'rev-list', `${before}..main`)).toBe(winners[0]?.commit);
    const winner = git(bare(), 'log', '-1', '--format=%an', 'main');
    expect(remoteText('deals/contested.md')).toBe(`${winner} was here\n`);
  }, 120_000);
});

describe('failures: 503 upstream, nothing left behind', () => {
  test('a wrong token: the store opens but is not writable, writes fail with StoreUnavailableError, and no token appears in any message', async () => {
    const store = await open({ token: 'wrong-token-7d2' });
    const status = await store.status();
    expect(status.writable).toBe(false);
    expect(status.problem).toMatch(/refused the credentials \(HTTP 401\)/);
    const error = (await store.commit([{ path: 'deals/nope.md', text: 'x\n' }], { message: 'Nope', author: ann }).catch((e: unknown) => e)) as StoreUnavailableError;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).not.toBeInstanceOf(StoreConflictError);
    const everything = `${String(error)} ${String(error.cause)} ${JSON.stringify(error.cause)} ${(error.cause as Error).stack ?? ''}`;
    for (const secret of ['wrong-token-7d2', TOKEN, Buffer.from(`x-access-token:wrong-token-7d2`).toString('base64')]) expect(everything).not.toContain(secret);
    expect(remoteText('deals/nope.md')).toBeUndefined();
  });

  test('the connection dropped mid-push: StoreUnavailableError, the remote unchanged, the store still at the remote; then the same write goes through', async () => {
    const store = await open();
    const before = tip();
    host.failPushes = true;
    let error: unknown;
    try {
      error = await store
        .commit(
          [
            { path: 'deals/dropped.md', text: 'dropped\n' },
            { path: 'deals/first.md', text: null },
          ],
          { message: 'Dropped', author: ann },
        )
        .catch((e: unknown) => e);
    } finally {
      host.failPushes = false;
    }
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).not.toBeInstanceOf(StoreConflictError);
    await expectAtRemote(store, before);
    await store.commit([{ path: 'deals/dropped.md', text: 'dropped\n' }], { message: 'Not dropped', author: ann });
    expect(remoteText('deals/dropped.md')).toBe('dropped\n');
  });

  test('the server stopped: StoreUnavailableError, files as they were; pull fails too', async () => {
    const second = await startGitHttpServer(work, TOKEN);
    const store = await open({ url: `${second.url}/remote.git` });
    const before = await filesOnDisk(store);
    await second.stop();
    await expect(store.commit([{ path: 'deals/offline.md', text: 'x\n' }], { message: 'Offline', author: ann })).rejects.toThrow(/cannot be reached/);
    await expect(store.pull()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await filesOnDisk(store)).toEqual(before);
    expect(remoteText('deals/offline.md')).toBeUndefined();
  });
});

describe('reads of the past agree with git', () => {
  test('history (renames followed, merges left out), readAt and changedPaths answer what git-history.ts and git diff read from a clone', async () => {
    const store = await open();
    const from = tip();
    await store.commit([{ path: 'deals/moving.md', text: '---\ntitle: Moving\nvalue: 1\n---\nBody line one.\nBody line two.\n' }], { message: 'Create moving', author: ann });
    await store.commit(
      [
        { path: 'deals/moving.md', text: null },
        { path: 'deals/moved.md', text: '---\ntitle: Moving\nvalue: 1\n---\nBody line one.\nBody line two.\n' },
      ],
      { message: 'Rename moving to moved', author: ann },
    );
    handCommit('deals/moved.md', '---\ntitle: Moving\nvalue: 2\n---\nBody line one.\nBody line two.\n', 'Hand change of moved');
    await store.pull();
    await store.commit(
      [
        { path: 'deals/renamed-changed.md', text: '---\ntitle: Moving\nvalue: 3\n---\nBody line one.\nBody line two.\n' },
        { path: 'deals/moved.md', text: null },
      ],
      { message: 'Rename and change', author: ann },
    );
    handMerge('deals/renamed-changed.md', '---\ntitle: Moving\nvalue: 4\n---\nBody line one.\nBody line two.\n');
    handMerge('deals/first.md', 'merged in\n');
    await store.pull();
    const clone = join(work, 'reader');
    git(work, 'clone', '-q', bare(), clone);
    const root = join(clone, 'content');
    for (const path of ['deals/renamed-changed.md', 'deals/first.md', 'deals/moving.md', 'deals/never.md']) {
      for (const page of [
        { offset: 0, limit: 50 },
        { offset: 1, limit: 2 },
      ]) {
        expect(await store.history(path, page), `${path} ${JSON.stringify(page)}`).toEqual(await fileLog(clone, root, path, page, STORE_COMMITTER.email));
      }
    }
    const history = await store.history('deals/renamed-changed.md', { offset: 0, limit: 10 });
    expect(history.map((c) => c.status)).toEqual(['M', 'R', 'M', 'R', 'A']);
    expect(history.map((c) => c.message)).not.toContain('Merge side');
    const versions = [
      ...history.map((c) => ({ commit: c.commit, path: c.path })),
      ...history.map((c) => ({ commit: c.parent ?? '', path: c.previousPath })),
      { commit: 'f'.repeat(40), path: 'deals/first.md' },
      { commit: from, path: '../README.md' },
    ];
    expect(await store.readAt(versions)).toEqual(await readAt(clone, root, versions));
    const head = tip();
    expect(await store.changedPaths(from, head)).toEqual(
      git(clone, 'diff', '--name-only', '--no-renames', from, head, '--', 'content')
        .split('\n')
        .map((p) => relative('content', p)),
    );
    expect(await store.changedPaths(from, 'f'.repeat(40))).toBeUndefined();
  });
});

describe('the first-parent line agrees with git', () => {
  test('log: every commit from the head, `after` ending it; commitFiles: what each changed against its first parent (a merge: what it brought in), blob ids; readBlobs', async () => {
    // A side branch merged into main (--no-ff): on the line, the merge carries the side's file.
    const merger = join(work, 'line-merger');
    git(work, 'clone', '-q', bare(), merger);
    git(merger, 'checkout', '-q', '-b', 'line-side');
    writeFileSync(join(merger, 'content', 'deals', 'line-side.md'), 'from the side\n');
    git(merger, 'add', '-A');
    git(merger, 'commit', '-qm', 'Side file');
    git(merger, 'checkout', '-q', 'main');
    writeFileSync(join(merger, 'content', 'deals', 'line-main.md'), 'on main meanwhile\n');
    git(merger, 'add', '-A');
    git(merger, 'commit', '-qm', 'Main file');
    git(merger, 'merge', '-q', '--no-ff', '-m', 'Merge line side', 'line-side');
    git(merger, 'push', '-q', 'origin', 'main');
    const store = await open();
    const clone = join(work, 'line-reader');
    git(work, 'clone', '-q', bare(), clone);
    const root = join(clone, 'content');
    const head = tip();
    const byGit = await lineLog(clone, head, { limit: 100 }, STORE_COMMITTER.email);
    expect(await store.log(head, { limit: 100 })).toEqual(byGit);
    expect(byGit.at(-1)?.parent).toBeUndefined();
    const after = byGit[3]?.commit as string;
    expect(await store.log(head, { after, limit: 100 })).toEqual(await lineLog(clone, head, { after, limit: 100 }, STORE_COMMITTER.email));
    expect((await store.log(head, { after, limit: 100 })).at(-1)?.parent).toBe(after);
    expect(byGit.map((c) => c.message)).not.toContain('Side file');

    // The same files in the same order (isomorphic-git walks folders, git sorts whole paths).
    const sorted = (files: LineFile[][]) => files.map((list) => [...list].sort((a, b) => (a.path < b.path ? -1 : 1)));
    const files = await commitFiles(clone, root, byGit);
    expect(sorted(await store.commitFiles(byGit))).toEqual(sorted(files));
    expect(byGit.slice(0, 2).map((c, i) => [c.message, files[i]?.map((f) => f.path)])).toEqual([
      ['Merge line side', ['deals/line-side.md']],
      ['Main file', ['deals/line-main.md']],
    ]);
    // A root commit: every file it holds is new; nothing outside the content folder.
    expect(files.at(-1)?.every((f) => f.before === undefined && f.after !== undefined)).toBe(true);
    expect(files.flat().some((f) => f.path.startsWith('README') || f.path.startsWith('content/'))).toBe(false);
    const blobs = files.flat().flatMap((f) => [f.before, f.after].filter((b): b is string => b !== undefined));
    expect(await store.readBlobs([...blobs, 'f'.repeat(40), 'x'])).toEqual(await readBlobs(clone, [...blobs, 'f'.repeat(40), 'x']));
    expect((await readBlobs(clone, ['f'.repeat(40)]))[0]).toBeUndefined();
    expect(await store.log(head, { limit: 2 })).toHaveLength(2);
  });
});

describe('latency', () => {
  test('a single-file commit and push to the local server: median and p95 over 30 writes', async () => {
    const store = await open();
    const times: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const start = performance.now();
      await store.commit([{ path: `deals/timed-${i % 5}.md`, text: `write ${i}\n` }], { message: `Timed ${i}`, author: ann });
      times.push(performance.now() - start);
    }
    // The same through the git program (commit + push from a clone), as a yardstick for this machine and server.
    const clone = join(work, 'timed-cli');
    git(work, 'clone', '-q', bare(), clone);
    const cli: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      await writeFile(join(clone, 'content', 'deals', 'timed-cli.md'), `cli ${i}\n`);
      const start = performance.now();
      await run('git', ['add', '-A'], { cwd: clone });
      await run('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.com', 'commit', '-qm', `cli ${i}`], { cwd: clone });
      await run('git', ['-c', `http.extraHeader=Authorization: Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, 'push', '-q', 'origin', 'HEAD:main'], { cwd: clone });
      cli.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    cli.sort((a, b) => a - b);
    const at = (list: number[], q: number) => (list[Math.min(list.length - 1, Math.ceil(q * list.length) - 1)] as number).toFixed(0);
    console.log(
      `http-git-store commit+push over ${times.length} writes: p50 ${at(times, 0.5)} ms, p95 ${at(times, 0.95)} ms, max ${at(times, 1)} ms; git CLI commit+push over ${cli.length}: p50 ${at(cli, 0.5)} ms, p95 ${at(cli, 0.95)} ms`,
    );
    expect(remoteText('deals/timed-4.md')).toBe('write 29\n');
  }, 120_000);
});
