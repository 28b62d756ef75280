/**
 * The real server as its own process (`scripts/serve.ts`, as `npm run serve` runs it, or
 * another of the scripts that serve: `start.ts`, `dev.ts`), for
 * tests that kill it, run several instances, or load it without sharing the test's event
 * loop. The caller prepares the folders; the child reports its URL over IPC once listening.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

export interface ChildServerOptions {
  contentDir: string;
  generatedDir: string;
  dataDir: string;
  /** More settings (REDIS_URL, CONTENT_REMOTE, SESSION_SECRET, …). */
  env?: Record<string, string>;
  /** The script under `scripts/` to run; `serve.ts` by default. */
  script?: string;
}

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Every output line so far (JSON log lines). */
  output: string[];
  /** Log lines at level `error`. */
  errors: () => string[];
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop: () => Promise<void>;
}

export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const output: string[] = [];
  const child = fork(join(PROJECT_ROOT, 'scripts', options.script ?? 'serve.ts'), [], {
    cwd: PROJECT_ROOT,
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      // No Astro build: the API, documents and MCP are what these tests exercise.
      DIST_DIR: join(PROJECT_ROOT, 'dist-test-none'),
      ...options.env,
      CONTENT_DIR: options.contentDir,
      GENERATED_DIR: options.generatedDir,
      DATA_DIR: options.dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
    },
  });
  let partial = '';
  const keep = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    output.push(...lines.filter(Boolean));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in 30 s:\n${output.join('\n')}`));
    }, 30_000);
    child.on('message', (message: unknown) => {
      const listening = (message as { listening?: unknown })?.listening;
      if (typeof listening === 'string') {
        clearTimeout(timer);
        resolve(listening.replace(/\/$/, ''));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output.join('\n')}`));
    });
  });
  // An interrupted test run must not leave servers behind.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  return {
    process: child,
    url,
    output,
    errors: () => output.filter((line) => line.includes('"level":"error"')),
    exited,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
