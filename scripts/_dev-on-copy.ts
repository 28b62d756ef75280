/**
 * `npm run dev` on a git copy of the starter catalog, for the scripts that walk through it in a
 * browser (preview-timing.ts, editor-walkthrough.ts): the copy is made once under `work`, and
 * its build stays current between runs while the copy is unchanged.
 */
import { execFileSync, fork } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

/** The copy's content folder: `<work>/repo/content`, a git repository of the starter catalog (made once). */
export async function contentCopy(work: string): Promise<string> {
  const content = join(work, 'repo', 'content');
  if (existsSync(content)) return content;
  await mkdir(join(work, 'repo'), { recursive: true });
  await cp(join(ROOT, 'content'), content, { recursive: true, preserveTimestamps: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Preview', '-c', 'user.email=preview@localhost', ...args], { cwd: join(work, 'repo'), stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Starter catalog');
  return content;
}

/**
 * `scripts/dev.ts` on the copy, at `port`, with its generated, dist and data folders in `work`;
 * resolves once it listens (after a build, the first time). Its output goes to `<work>/dev.log`.
 */
export async function startDev(work: string, port: string): Promise<ReturnType<typeof fork>> {
  const log = createWriteStream(join(work, 'dev.log'));
  const child = fork(join(ROOT, 'scripts', 'dev.ts'), [], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      CONTENT_DIR: join(work, 'repo', 'content'),
      GENERATED_DIR: join(work, 'generated'),
      DIST_DIR: join(work, 'dist'),
      DATA_DIR: join(work, 'data'),
      PORT: port,
      HOST: '127.0.0.1',
      LOGO_FETCH: 'off',
    },
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  process.once('exit', () => child.kill('SIGKILL'));
  console.log(`starting npm run dev on port ${port} (a build the first time; output in ${join(work, 'dev.log')})...`);
  await new Promise<void>((done, fail) => {
    child.on('message', (message) => ((message as { listening?: string }).listening ? done() : undefined));
    child.once('exit', (code) => fail(new Error(`dev server exited (${code}); see ${join(work, 'dev.log')}`)));
  });
  return child;
}
