/**
 * The git content store on real temporary repositories: one commit per write with the actor as
 * author on both commit paths (a repository holding only content, and content inside a larger
 * repository, where someone else's staged change must not ride along), no commit for a write
 * that changes nothing, and with a remote: push before acknowledging, rebase when another clone
 * got there first, a conflict taken back cleanly, and a pull that drops an unpublished commit.
 * Commit messages and authors are one safe line whatever a caller passes (SECURITY: no
 * `Co-authored-by:` or other trailer from user text).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { StoreConflictError } from '../../functions/store/content-store.ts';
import { GitStore } from '../../functions/store/git-store.ts';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.com', ...args], { cwd, stdio: 'pipe' })
    .toString('utf8')
    .trim();
const author = { name: 'ann@example.com', email: 'ann@example.com' };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-git-store-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A repository at `<work>/<name>` with `content/deals/first.md` (and `extra` files) committed. */
async function repository(name: string, extra: Record<string, string> = {}): Promise<string> {
  const repo = join(work, name);
  await mkdir(join(repo, 'content', 'deals'), { recursive: true });
  await writeFile(join(repo, 'content', 'deals', 'first.md'), 'first\n');
  for (const [path, text] of Object.entries(extra)) await writeFile(join(repo, path), text);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'start');
  return repo;
}

const LAYOUTS: { kind: string; extra: Record<string, string> }[] = [
  { kind: 'a repository holding only content', extra: {} },
  { kind: 'content inside a larger repository', extra: { 'package.json': '{}\n' } },
];

describe.each(LAYOUTS)('commits in $kind', ({ kind, extra }) => {
  test('one commit per write, authored by the actor; nothing left staged; an unchanged write makes no commit', async () => {
    const repo = await repository(kind.replace(/\W+/g, '-'), extra);
    const store = await GitStore.open(join(repo, 'content'));
    const { commit } = await store.commit(
      [
        { path: 'deals/second.md', text: 'second\n' },
        { path: 'deals/first.md', text: null },
      ],
      { message: 'Add second, remove first', author },
    );
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(commit);
    expect(git(repo, 'log', '-1', '--format=%ae|%s')).toBe('ann@example.com|Add second, remove first');
    expect(git(repo, 'show', '--name-status', '--format=', 'HEAD').split('\n').sort()).toEqual(['A\tcontent/deals/second.md', 'D\tcontent/deals/first.md']);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    const again = await store.commit([{ path: 'deals/second.md', text: 'second\n' }], { message: 'Same again', author });
    expect(again.commit).toBe(commit);
    expect(git(repo, 'rev-list', '--count', 'HEAD')).toBe('2');
  });
});

describe.each(LAYOUTS)('bytes (a logo image) in $kind', ({ kind, extra }) => {
  test('are committed exactly; a write that fails after replacing them puts the old bytes back exactly', async () => {
    const repo = await repository(`bytes-${kind.replace(/\W+/g, '-')}`, extra);
    const store = await GitStore.open(join(repo, 'content'));
    const first = new Uint8Array(300).map((_, i) => (i * 11 + 0x80) % 256);
    await store.commit([{ path: 'logos/deals/first.webp', text: first }], { message: 'Logo', author });
    const committed = execFileSync('git', ['show', 'HEAD:content/logos/deals/first.webp'], { cwd: repo });
    expect(Buffer.compare(committed, Buffer.from(first))).toBe(0);
    const head = git(repo, 'rev-parse', 'HEAD');
    // The second file cannot be written (deals/first.md is a file, not a folder): the whole write is undone.
    const failing = store.commit(
      [
        { path: 'logos/deals/first.webp', text: new Uint8Array([1, 2, 3]) },
        { path: 'deals/first.md/nested.md', text: 'x\n' },
      ],
      { message: 'Fails', author },
    );
    await expect(failing).rejects.toThrow();
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(Buffer.compare(await readFile(join(repo, 'content', 'logos', 'deals', 'first.webp')), Buffer.from(first))).toBe(0);
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});

describe.each(LAYOUTS)('commit metadata in $kind: one safe line whatever a caller passes', ({ kind, extra }) => {
  test('CR/LF and control characters become spaces, so no trailer or header can be smuggled in; the subject is capped; the author is one clean identity', async () => {
    const repo = await repository(`metadata-${kind.replace(/\W+/g, '-')}`, extra);
    const store = await GitStore.open(join(repo, 'content'));
    const message = `Add Acme\r\n\nCo-authored-by: Victim <victim@example.com>\n\u0000\u001b[31mred\u0085next\u2028${'x'.repeat(500)}`;
    await store.commit([{ path: 'deals/metadata.md', text: 'm\n' }], {
      message,
      author: { name: 'Eve\nCo-authored-by: Victim <victim@example.com>', email: 'eve@example.com>\n<x@y' },
    });
    const body = git(repo, 'log', '-1', '--format=%B');
    expect(body).not.toContain('\n');
    expect(git(repo, 'log', '-1', '--format=%(trailers)')).toBe('');
    expect(body.startsWith('Add Acme Co-authored-by: Victim <victim@example.com> [31mred next ')).toBe(true);
    expect(body.length).toBeLessThanOrEqual(200);
    expect(body.endsWith('…')).toBe(true);
    expect(git(repo, 'log', '-1', '--format=%an|%ae')).toBe('Eve Co-authored-by: Victim victim@example.com|eve@example.comx@y');
    expect(
      git(repo, 'cat-file', 'commit', 'HEAD')
        .split('\n')
        .filter((line) => /^(author|committer) /.test(line)),
    ).toHaveLength(2);
  });

  test('a message of nothing but control characters still makes a commit with a subject', async () => {
    const repo = await repository(`empty-message-${kind.replace(/\W+/g, '-')}`, extra);
    const store = await GitStore.open(join(repo, 'content'));
    await store.commit([{ path: 'deals/empty.md', text: 'e\n' }], { message: '\n\r\t', author });
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('Content change');
  });
});

describe.each(LAYOUTS)("a hand commit in the store's own clone ($kind)", ({ kind, extra }) => {
  test('a later write that puts a file back as the store last saw it is still committed (the remembered tip is not trusted blindly)', async () => {
    const repo = await repository(`hand-${kind.replace(/\W+/g, '-')}`, extra);
    const store = await GitStore.open(join(repo, 'content'));
    await store.commit([{ path: 'deals/first.md', text: 'from the store\n' }], { message: 'Store edit', author });
    // An editor commits by hand in the same clone, changing the file the store wrote.
    await writeFile(join(repo, 'content', 'deals', 'first.md'), 'from the editor\n');
    git(repo, 'commit', '-q', '-am', 'Hand edit');
    const { commit } = await store.commit([{ path: 'deals/first.md', text: 'from the store\n' }], { message: 'Store puts it back', author });
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(commit);
    expect(git(repo, 'show', 'HEAD:content/deals/first.md')).toBe('from the store');
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('Store puts it back');
    expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});

test('a change someone staged outside the content is not swept into the store commit', async () => {
  const repo = await repository('foreign-staged', { 'package.json': '{}\n' });
  await writeFile(join(repo, 'package.json'), '{"staged": true}\n');
  git(repo, 'add', 'package.json');
  const store = await GitStore.open(join(repo, 'content'));
  await store.commit([{ path: 'deals/third.md', text: 'third\n' }], { message: 'Add third', author });
  expect(git(repo, 'show', '--name-only', '--format=', 'HEAD')).toBe('content/deals/third.md');
  expect(git(repo, 'diff', '--cached', '--name-only')).toBe('package.json');
});

test('a repository without a commit opens (the content folder inside it), and its first write is its first commit', async () => {
  const repo = join(work, 'no-commit');
  await mkdir(join(repo, 'content', 'deals'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  const store = await GitStore.open(join(repo, 'content'));
  expect(await store.status()).toMatchObject({ commit: undefined, writable: false });
  await store.commit([{ path: 'deals/first.md', text: 'first\n' }], { message: 'Add first', author });
  expect(git(repo, 'rev-list', '--count', 'HEAD')).toBe('1');
  expect(git(repo, 'show', '--name-only', '--format=', 'HEAD')).toBe('content/deals/first.md');
  expect((await store.status()).commit).toBe(git(repo, 'rev-parse', 'HEAD'));
});

test('a folder outside any repository opens, and refuses writes as unavailable', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'deals-no-repository-'));
  try {
    const store = await GitStore.open(folder);
    expect(await store.status()).toMatchObject({ commit: undefined, writable: false, problem: 'the content folder is not inside a git repository' });
    await expect(store.commit([{ path: 'deals/first.md', text: 'first\n' }], { message: 'Add first', author })).rejects.toThrow(/not inside a git repository/);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

describe('with a remote', () => {
  let remote: string;
  let a: string;
  let b: string;

  beforeAll(async () => {
    const seed = await repository('seed');
    remote = join(work, 'remote.git');
    git(work, 'clone', '-q', '--bare', seed, remote);
    a = join(work, 'clone-a');
    b = join(work, 'clone-b');
    git(work, 'clone', '-q', remote, a);
    git(work, 'clone', '-q', remote, b);
  });

  const remoteHead = () => git(remote, 'rev-parse', 'main');

  test('a write is pushed before it resolves', async () => {
    const store = await GitStore.open(join(a, 'content'), { name: 'origin' });
    const { commit, integrated } = await store.commit([{ path: 'deals/from-a.md', text: 'a\n' }], { message: 'From A', author });
    expect(remoteHead()).toBe(commit);
    expect(integrated).toBe(false);
  });

  test('when the remote moved, the commit is rebased onto it and pushed; the history stays linear', async () => {
    const store = await GitStore.open(join(b, 'content'), { name: 'origin' });
    const { commit, integrated } = await store.commit([{ path: 'deals/from-b.md', text: 'b\n' }], { message: 'From B', author });
    expect(integrated).toBe(true);
    expect(remoteHead()).toBe(commit);
    expect(git(remote, 'log', '--format=%s', 'main').split('\n')).toEqual(['From B', 'From A', 'start']);
    expect(git(remote, 'rev-list', '--merges', 'main')).toBe('');
    expect(await readFile(join(b, 'content', 'deals', 'from-a.md'), 'utf8')).toBe('a\n');
  });

  test('the same file changed on both sides: the write fails as a conflict and leaves the clone at the remote, clean', async () => {
    const storeA = await GitStore.open(join(a, 'content'), { name: 'origin' });
    await storeA.pull();
    await storeA.commit([{ path: 'deals/shared.md', text: 'from a\n' }], { message: 'Shared from A', author });
    const storeB = await GitStore.open(join(b, 'content'), { name: 'origin' });
    const before = remoteHead();
    await expect(storeB.commit([{ path: 'deals/shared.md', text: 'from b\n' }], { message: 'Shared from B', author })).rejects.toBeInstanceOf(StoreConflictError);
    expect(remoteHead()).toBe(before);
    expect(git(b, 'rev-parse', 'HEAD')).toBe(before);
    expect(git(b, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await readFile(join(b, 'content', 'deals', 'shared.md'), 'utf8')).toBe('from a\n');
  });

  test('a pull drops a local commit the remote never got (a push the process did not live to finish)', async () => {
    git(a, 'pull', '-q', '--ff-only');
    await writeFile(join(a, 'content', 'deals', 'unpublished.md'), 'never pushed\n');
    git(a, 'add', '-A');
    git(a, 'commit', '-q', '-m', 'Unpublished');
    const store = await GitStore.open(join(a, 'content'), { name: 'origin' });
    const { commit, moved } = await store.pull();
    expect(moved).toBe(true);
    expect(commit).toBe(remoteHead());
    expect(git(a, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    await expect(readFile(join(a, 'content', 'deals', 'unpublished.md'), 'utf8')).rejects.toThrow();
  });
});

test('opening reads the checked-out commit, so the start need not ask git again; none before a first commit or outside a repository', async () => {
  const repo = await repository('head-when-opened');
  const store = await GitStore.open(join(repo, 'content'));
  expect(store.headWhenOpened).toBe(git(repo, 'rev-parse', 'HEAD'));
  expect(store.headWhenOpened).toBe((await store.status()).commit);
  const empty = join(work, 'head-when-opened-empty');
  await mkdir(join(empty, 'content'), { recursive: true });
  git(empty, 'init', '-q', '-b', 'main');
  expect((await GitStore.open(join(empty, 'content'))).headWhenOpened).toBeUndefined();
  const outside = await mkdtemp(join(tmpdir(), 'deals-no-repository-'));
  try {
    expect((await GitStore.open(outside)).headWhenOpened).toBeUndefined();
  } finally {
    await rm(outside, { recursive: true, force: true });
  }
});
