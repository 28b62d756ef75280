/**
 * Test harness: build a fixture content tree into a temporary `generated/` and start the real
 * Node server on 127.0.0.1, on an ephemeral port. Error log lines are collected so a test can
 * fail on any unexpected 500 (STYLE 12).
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadConfig, type Config } from '../../functions/config.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { emitCatalog } from '../../src/pipeline/emit.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { startServer, type RunningServer } from '../../functions/server.ts';
import { createLogger } from '../../functions/ops/log.ts';

export const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures', 'content');

export interface TestServer extends RunningServer {
  /** Log lines at level `error` since start. */
  errors: string[];
  /** Every log line since start (JSON, one event each). */
  lines: string[];
  config: Config;
  stop: () => Promise<void>;
}

/**
 * The content tree is copied into a fresh git repository in a temporary folder, so writes
 * commit there and never into the project's own repository.
 * @param source a content tree, such as `join(FIXTURES, 'valid')` or the project's `content/`
 * @param options.site a built site folder (with `client/`) to serve as `dist/`
 * @param options.distDir a built site to serve where it is (an Astro build inside the project, whose server bundle resolves `node_modules` from there)
 * @param options.dev with the preview loop of `npm run dev` (functions/dev/)
 */
export async function startTestServer(source: string, env: Record<string, string> = {}, options: { site?: string; distDir?: string; dev?: boolean } = {}): Promise<TestServer> {
  const work = await mkdtemp(join(tmpdir(), 'deals-test-'));
  const contentDir = await gitContentCopy(source, work);
  // A built site (tests/fixtures/site) for tests of how the adapter serves files and pages.
  if (options.site) await cp(options.site, join(work, 'dist'), { recursive: true });
  const config: Config = {
    // Private data (submissions, session secret) in the run's folder, never the project's `.data/`.
    ...loadConfig({ DATA_DIR: join(work, 'data'), ...env, PORT: '0', HOST: '127.0.0.1' }),
    contentDir,
    generatedDir: join(work, 'generated'),
    distDir: options.distDir ?? join(work, 'dist'),
  };
  const errors: string[] = [];
  const lines: string[] = [];
  const log = createLogger((line) => {
    lines.push(line);
    if (line.includes('"level":"error"')) errors.push(line);
  });
  let running: RunningServer;
  try {
    const built = runPipeline(await readContent(contentDir), { today: '2026-11-21' });
    if (!built.value) throw new Error(`fixture ${contentDir} does not build: ${JSON.stringify(built.diagnostics)}`);
    await emitCatalog(config.generatedDir, built.value);
    running = await startServer(config, log, { dev: options.dev });
  } catch (error) {
    // A server that fails to start (tests of refused configurations) leaves nothing behind.
    await rm(work, { recursive: true, force: true });
    throw error;
  }
  return {
    ...running,
    errors,
    lines,
    config,
    stop: async () => {
      await running.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/**
 * The hooks of a test file with one server: started before its tests, stopped after them, and
 * any test after which the server logged an error fails (STYLE 12: an unexpected 500 above
 * all). The returned object is filled in when the server is up, so use it inside tests only.
 * @example const server = useTestServer(join(FIXTURES, 'valid'));
 */
export function useTestServer(source: string, env: Record<string, string> = {}, options: { site?: string; dev?: boolean } = {}): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    Object.assign(server, await startTestServer(source, env, options));
  });
  afterAll(async () => {
    await server.stop?.();
  });
  afterEach(() => {
    // Taken, not just read: one failing test does not fail every later one.
    expect(server.errors?.splice(0) ?? []).toEqual([]);
  });
  return server;
}

/** Copy a content tree into `<work>/repo/content` and commit it as the first commit. */
export async function gitContentCopy(source: string, work: string): Promise<string> {
  const repo = join(work, 'repo');
  const contentDir = join(repo, 'content');
  await cp(source, contentDir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@localhost', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Initial content');
  return contentDir;
}
