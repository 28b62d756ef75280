/**
 * Several instances' content stores: a bare git repository as the shared remote, seeded with
 * a content tree, and clones of it (one per instance), each with its generated catalog built
 * as `npm start` would build it.
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildGenerated } from './build-generated.ts';
import { gitContentCopy } from './server.ts';

export interface Clone {
  /** The clone's work tree. */
  repo: string;
  contentDir: string;
  generatedDir: string;
}

/** `git` with a fixed identity, in `cwd`; returns stdout. */
export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.com', ...args], { cwd, stdio: 'pipe' }).toString('utf8');
}

/** A bare repository at `<work>/remote.git` holding `source` as its first commit on `main`. */
export async function createRemote(source: string, work: string): Promise<string> {
  const remote = join(work, 'remote.git');
  await mkdir(remote, { recursive: true });
  gitIn(remote, 'init', '-q', '--bare', '-b', 'main');
  const seed = await gitContentCopy(source, join(work, 'seed'));
  gitIn(join(seed, '..'), 'push', '-q', remote, 'main');
  return remote;
}

/** Clone the remote as `<work>/<name>` (remote `origin`) and build its catalog. */
export async function cloneFor(remote: string, work: string, name: string): Promise<Clone> {
  const repo = join(work, name);
  gitIn(work, 'clone', '-q', remote, repo);
  const contentDir = join(repo, 'content');
  const generatedDir = join(work, `${name}-generated`);
  await buildGenerated(contentDir, generatedDir);
  return { repo, contentDir, generatedDir };
}
