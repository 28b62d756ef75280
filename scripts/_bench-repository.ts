/**
 * For the benchmarks: a folder's `content/` committed to a new git repository in that folder,
 * as an editor's repository would hold it, so the server starts on a commit.
 */
import { execFileSync } from 'node:child_process';

/** `git init` in `folder`, then one commit of `folder/content`; the commit. */
export function commitContent(folder: string, message: string): string {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost', ...args], { cwd: folder, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A', 'content');
  git('commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD').trim();
}
