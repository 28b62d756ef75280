/**
 * Reading a file's history from the content repository, for the admin's history and revert:
 * the commits that changed one file (`git log --follow`, so a rename by a slug change is
 * followed back to the old name), and file texts as of given commits (`git cat-file --batch`,
 * one process for any number). Only the repository's own commits are read: commit ids are
 * checked to be full hexadecimal object names and paths to be plain content paths before git
 * sees them, and paths travel after `--` or on stdin, so nothing a caller sends is an option.
 */
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { COMMIT_ID } from '../../src/schemas/requests.ts';
import { assertSafePath, type FileCommit, type LineCommit, type LineFile } from './content-store.ts';

/**
 * The commits that changed `path` (relative to the content root `root`, inside the work tree
 * `top`; checked by the caller with `assertSafePath`), newest first, `offset` and `limit`
 * applied after following renames. Merge commits are left out; the commits they bring in are
 * listed. `storeEmail`: the committer e-mail of the store's own commits.
 */
export async function fileLog(top: string, root: string, path: string, page: { offset: number; limit: number }, storeEmail: string): Promise<FileCommit[]> {
  const prefix = relative(top, root);
  const repoPath = prefix ? `${prefix}/${path}` : path;
  // Not `--skip`: git switches to a file's earlier name only when it shows the rename, so a
  // skipped rename would end the history there. The page is cut here instead.
  const args = [
    '-c',
    'log.showSignature=false',
    'log',
    '--follow',
    '-M',
    '--no-merges',
    '--no-color',
    `--format=${FORMAT}`,
    '--name-status',
    '-z',
    `-n${whole(page.offset) + whole(page.limit)}`,
    '--',
    repoPath,
  ];
  const out = (await git(top, args)).toString('utf8');
  const contentPath = (repo: string) => (prefix ? relative(prefix, repo) : repo);
  return out
    .split(RECORD)
    .slice(1 + whole(page.offset))
    .flatMap((record) => {
      const headerEnd = record.indexOf('\0');
      const [commit = '', parents = '', authorName = '', authorEmail = '', date = '', committerEmail = '', ...subject] = record.slice(0, headerEnd).split(FIELD);
      const [status = '', first, second] = record
        .slice(headerEnd + 1)
        .replace(/^\n/, '')
        .split('\0');
      if (!first) return [];
      const renamed = /^[RC]/.test(status);
      const parent = parents.split(' ')[0];
      return [
        {
          commit,
          ...(parent ? { parent } : {}),
          author: { name: authorName, email: authorEmail },
          byStore: committerEmail === storeEmail,
          date,
          message: subject.join(FIELD),
          status: status.charAt(0),
          path: contentPath(renamed && second ? second : first),
          previousPath: contentPath(first),
        },
      ];
    });
}

/**
 * The text of each `{ commit, path }` (content-relative) as of that commit, in order;
 * `undefined` where the file was not there (or the commit is unknown).
 */
export async function readAt(top: string, root: string, versions: readonly { commit: string; path: string }[]): Promise<(string | undefined)[]> {
  const prefix = relative(top, root);
  const readable = versions.map(({ commit, path }) => COMMIT_ID.test(commit) && isSafePath(path));
  const lines = versions.filter((_, i) => readable[i]).map(({ commit, path }) => `${commit}:${prefix ? `${prefix}/` : ''}${path}\n`);
  if (lines.length === 0) return versions.map(() => undefined);
  const texts = parseBatch(await git(top, ['cat-file', '--batch'], lines.join('')));
  return readable.map((ok) => (ok ? texts.shift() : undefined));
}

/**
 * The text of each blob (full object id), in order; `undefined` for an unknown id or another
 * kind of object. By id, git reads each at once: `<commit>:<path>` looks the path up in the
 * commit's trees for every line, which in a folder of thousands of files costs milliseconds each.
 */
export async function readBlobs(top: string, ids: readonly string[]): Promise<(string | undefined)[]> {
  const readable = ids.map((id) => COMMIT_ID.test(id));
  const lines = ids.filter((_, i) => readable[i]).map((id) => `${id}\n`);
  if (lines.length === 0) return ids.map(() => undefined);
  const texts = parseBatch(await git(top, ['cat-file', '--batch'], lines.join('')));
  let next = 0;
  return readable.map((ok) => (ok ? texts[next++] : undefined));
}

/**
 * The first-parent line from `head` (see `ContentStore.log`): one `git log --first-parent`,
 * commits only (no diffs: listing thousands costs milliseconds). With `after`, `head ^after`:
 * the walk stops at the first commit `after` contains.
 */
export async function lineLog(top: string, head: string, range: { after?: string | undefined; limit: number }, storeEmail: string): Promise<LineCommit[]> {
  if (!COMMIT_ID.test(head) || (range.after !== undefined && !COMMIT_ID.test(range.after))) throw new Error('commit ids must be full hexadecimal object names');
  const args = [
    '-c',
    'log.showSignature=false',
    'log',
    '--first-parent',
    '--no-color',
    '-z',
    `--format=${LINE_FORMAT}`,
    `-n${Math.max(1, whole(range.limit))}`,
    head,
    ...(range.after ? [`^${range.after}`] : []),
    '--',
  ];
  const out = (await git(top, args)).toString('utf8');
  return out
    .split(RECORD)
    .slice(1)
    .map((record) => {
      const [commit = '', parents = '', date = '', committerEmail = '', ...subject] = record.replace(/\0$/, '').split(FIELD);
      const parent = parents.split(' ')[0];
      return { commit, ...(parent ? { parent } : {}), date, message: subject.join(FIELD), byStore: committerEmail === storeEmail };
    });
}

/**
 * The content files each commit changed against its first parent (see `ContentStore.commitFiles`):
 * one `git diff-tree --stdin` for all of them, each line `<commit> <first parent>` (a root
 * commit alone: every file new), raw, blob ids in full, content paths only (`--relative`).
 */
export async function commitFiles(top: string, root: string, commits: readonly Pick<LineCommit, 'commit' | 'parent'>[]): Promise<LineFile[][]> {
  if (commits.length === 0) return [];
  if (commits.some((c) => !COMMIT_ID.test(c.commit) || (c.parent !== undefined && !COMMIT_ID.test(c.parent)))) throw new Error('commit ids must be full hexadecimal object names');
  const prefix = relative(top, root);
  const args = ['diff-tree', '--stdin', '-r', '--raw', '--no-abbrev', '-z', '--no-renames', '--root', '--always', ...(prefix ? [`--relative=${prefix}/`] : [])];
  const input = commits.map((c) => `${c.commit}${c.parent ? ` ${c.parent}` : ''}\n`).join('');
  const tokens = (await git(top, args, input)).toString('utf8').split('\0');
  // `<commit>` starts each commit's part; `:<modes> <blobs> <status>` is followed by its path.
  const files = new Map<string, LineFile[]>();
  let current: LineFile[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token.startsWith(':')) {
      const [, , before = '', after = ''] = token.split(' ');
      current.push({ path: tokens[++i] as string, ...(NO_BLOB.test(before) ? {} : { before }), ...(NO_BLOB.test(after) ? {} : { after }) });
    } else {
      // The commit alone, or `<commit> (from <parent>)`.
      const commit = token.trim().split(' ')[0] ?? '';
      if (COMMIT_ID.test(commit)) files.set(commit, (current = []));
    }
  }
  return commits.map((c) => files.get(c.commit) ?? []);
}

// --- internal ---

/** Between commits and between header fields: bytes no path, name or date holds (a subject, last, may). */
const RECORD = '\x1e\x1e';
const FIELD = '\x1f';
/** Commit, parents, author name and e-mail, author date (strict ISO 8601), committer e-mail, subject. */
const FORMAT = '%x1e%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%ce%x1f%s';
/** Commit, parents, committer date (strict ISO 8601), committer e-mail, subject. */
const LINE_FORMAT = '%x1e%x1e%H%x1f%P%x1f%cI%x1f%ce%x1f%s';
/** The object id git writes for "no file" in a raw diff. */
const NO_BLOB = /^0+$/;
/** The most a history read returns (a page of texts): more is a caller's bug, not a bigger buffer. */
const MAX_OUTPUT = 64 * 1024 * 1024;

const whole = (n: number): number => Math.max(0, Math.floor(n));

/** Whether `path` passes `assertSafePath`. */
export function isSafePath(path: string): boolean {
  try {
    assertSafePath(path);
    return true;
  } catch {
    return false;
  }
}

/** `git cat-file --batch` output: `<oid> <type> <size>\n<bytes>\n` per object, `<name> missing\n` otherwise. */
function parseBatch(out: Buffer): (string | undefined)[] {
  const texts: (string | undefined)[] = [];
  let at = 0;
  while (at < out.length) {
    const lineEnd = out.indexOf(0x0a, at);
    if (lineEnd === -1) break;
    const header = /^[0-9a-f]+ (\w+) (\d+)$/.exec(out.subarray(at, lineEnd).toString('utf8'));
    at = lineEnd + 1;
    if (!header) {
      texts.push(undefined);
      continue;
    }
    const size = Number(header[2]);
    texts.push(header[1] === 'blob' ? out.subarray(at, at + size).toString('utf8') : undefined);
    at += size + 1;
  }
  return texts;
}

/** Run git in the work tree, stdout as bytes (file texts are read byte-exact), with optional stdin. */
function git(cwd: string, args: readonly string[], input = ''): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: MAX_OUTPUT }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    // A git that exits before reading its input (a quick `git log`, a failure) closes the pipe: the
    // write's EPIPE is no error of its own (git's exit is what counts, above), and unheard it would
    // end the process (it did, in CI: an unhandled 'error' event).
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}
