/**
 * For the benchmarks: a folder's `content/` committed to a new git repository in that folder,
 * as an editor's repository would hold it, so the server starts on a commit.
 */
import { execFileSync } from 'node:child_process';

/** `git init` in `folder`, then one commit of `folder/content`; the commit. */
export function commitContent(folder: string, message: string): string {
  // gc.autoDetach=false: the commit of 150,000 new files starts `git gc --auto`, which by default
  // packs them in the background for some 16 s of both cores, into whatever is measured next.
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost', '-c', 'gc.autoDetach=false', ...args], { cwd: folder, encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A', 'content');
  git('commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD').trim();
}
