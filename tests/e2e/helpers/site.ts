/**
 * E2E harness: build the project's content (with its logos) and the Astro site once into a temporary folder
 * inside the project (`.e2e/<run>/`, so Astro's server bundle resolves `node_modules`), then
 * start the real server (`scripts/serve.ts`) as a child process on an ephemeral port.
 * Submissions commit into a throwaway git copy of `content/`, never into the project.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { cp, mkdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { buildLogos } from '../../../src/logos/build-logos.ts';
import { runPipeline } from '../../../src/pipeline/build.ts';
import { emitCatalog } from '../../../src/pipeline/emit.ts';
import { readContent } from '../../../src/pipeline/read-content.ts';
import { astroBuild } from '../../helpers/astro-build.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
/** Parent of every run folder; each run removes its own folder when it stops. */
export const E2E_DIR = join(ROOT, '.e2e');

export interface Site {
  /** Base URL, such as `http://127.0.0.1:40123` (no trailing slash). */
  url: string;
  /** This run's folder under `.e2e/`. */
  work: string;
  /** Server log lines at level `error` since start (a test can fail on any unexpected 500). */
  errors: string[];
  /** Private data folder (accounts) of the server. */
  dataDir: string;
  /** The git repository around the server's content folder (a test's hand commits go here). */
  repo: string;
  /** Tell the server to re-read its content folder (SIGHUP, as after a `git pull` by hand). */
  refresh: () => void;
  /** Start one more server on the same build and content, with extra settings (stopped by the caller). */
  serveWith: (env: Record<string, string>) => Promise<{ url: string; stop: () => Promise<void> }>;
  stop: () => Promise<void>;
}

/**
 * Build content + site and start the server, with `env` added to its settings.
 * @example const site = await startSite(); … await site.stop();
 */
export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const work = join(E2E_DIR, `run-${process.pid}-${Date.now().toString(36)}`);
  await mkdir(work, { recursive: true });
  let child: ChildProcess | undefined;
  const stop = async () => {
    await stopChild(child);
    await rm(work, { recursive: true, force: true });
    // Remove `.e2e/` itself once no other run uses it.
    await rmdir(E2E_DIR).catch(() => undefined);
  };
  try {
    const contentDir = await gitContentCopy(join(ROOT, 'content'), work);
    const generatedDir = join(work, 'generated');
    const distDir = join(work, 'dist');
    const dataDir = join(work, 'data');
    const built = runPipeline(await readContent(contentDir), { today: new Date().toISOString().slice(0, 10) });
    if (!built.value) throw new Error(`content does not build: ${JSON.stringify(built.diagnostics)}`);
    await emitCatalog(generatedDir, built.value);
    // The logos as `npm run build` makes them, without downloads (no test depends on the network).
    await buildLogos(built.value.data, { contentDir, generatedDir, fetch: false });
    await astroBuild(generatedDir, distDir);
    const errors: string[] = [];
    const settings = { CONTENT_DIR: contentDir, GENERATED_DIR: generatedDir, DIST_DIR: distDir, DATA_DIR: dataDir };
    const started = await serve({ ...settings, ...env }, errors);
    child = started.child;
    const serveWith = async (env: Record<string, string>) => {
      const another = await serve({ ...settings, ...env }, errors);
      return { url: another.url.replace(/\/$/, ''), stop: () => stopChild(another.child) };
    };
    // If the test process ends without `stop()` (interrupted run), do not leave the server behind.
    const orphan = () => started.child.kill('SIGKILL');
    process.once('exit', orphan);
    started.child.once('exit', () => process.off('exit', orphan));
    const refresh = () => void started.child.kill('SIGHUP');
    return { url: started.url.replace(/\/$/, ''), work, repo: dirname(contentDir), refresh, errors, dataDir, serveWith, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// --- internal ---

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  (child as StoppableChild).stopping = true;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Copy a content tree into `<work>/repo/content` and commit it, so submissions commit there
 * (same layout as `gitContentCopy` in tests/helpers/server.ts, without loading the server code).
 */
async function gitContentCopy(source: string, work: string): Promise<string> {
  const repo = join(work, 'repo');
  const contentDir = join(repo, 'content');
  await cp(source, contentDir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@localhost', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Initial content');
  return contentDir;
}

/** A server child, marked once the test stops it (so its exit is no crash). */
type StoppableChild = ChildProcess & { stopping?: boolean };

function serve(env: Record<string, string>, errors: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((done, fail) => {
    const log: string[] = [];
    const child: StoppableChild = fork(join(ROOT, 'scripts', 'serve.ts'), [], {
      cwd: ROOT,
      execPath: process.execPath,
      execArgv: [],
      silent: true,
      env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    });
    const onLines = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        log.push(line);
        if (line.includes('"level":"error"')) errors.push(line);
      }
    };
    child.stdout?.on('data', onLines);
    child.stderr?.on('data', onLines);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`server did not start in 30 s:\n${log.join('\n')}`));
    }, 30_000);
    child.on('message', (message: unknown) => {
      if (message && typeof message === 'object' && 'listening' in message && typeof message.listening === 'string') {
        clearTimeout(timer);
        done({ child, url: message.listening });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code} before listening:\n${log.join('\n')}`));
      // Not stopped by the test: a crash, whose last words the run shows (a test that merely fails on ECONNREFUSED says nothing of why).
      if (!child.stopping) console.error(`server exited unexpectedly (${code ?? signal}):\n${log.slice(-30).join('\n')}`);
    });
  });
}
