/**
 * `npm start` (scripts/start.ts, as its own process) when the content does not build: with an
 * earlier good build it serves that build and says loudly what is wrong (its output, the log,
 * /api/v1/health), and picks up the fixed files on SIGHUP; with no good build at all it refuses
 * to start, saying why.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { buildContent, buildInputs, isBuildCurrent, prepareBuild, recordBuild } from '../../scripts/_build-steps.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';

/** A built site (static files) standing in for Astro's output: what is tested here is which catalog is served. */
const SITE = join(FIXTURES, '..', 'site');
const BAD_CATEGORY = (text: string) => text.replace(/^category: .*$/m, 'category: sass-discounts');

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'start-last-good-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The valid fixture as a git content folder in `<work>/<name>`, and the settings `npm start` would get for it. */
async function project(name: string) {
  const contentDir = await gitContentCopy(join(FIXTURES, 'valid'), join(work, name));
  const env = { CONTENT_DIR: contentDir, GENERATED_DIR: join(work, name, 'generated'), DIST_DIR: SITE, DATA_DIR: join(work, name, 'data'), PORT: '0', HOST: '127.0.0.1', LOGO_FETCH: 'off' };
  const edit = async (path: string, change: (text: string) => string) => writeFile(join(contentDir, path), change(await readFile(join(contentDir, path), 'utf8')));
  const start = () => startChildServer({ contentDir, generatedDir: env.GENERATED_DIR, dataDir: env.DATA_DIR, script: 'start.ts', env });
  return { env, edit, start };
}

describe('npm start with content that does not build', () => {
  let server: ChildServer;
  let edit: (path: string, change: (text: string) => string) => Promise<void>;
  beforeAll(async () => {
    const site = await project('with-build');
    edit = site.edit;
    // An earlier good build, made by the build's own steps (the Astro part stands in: SITE).
    const config = loadConfig(site.env);
    const inputs = await buildInputs(config);
    expect(await buildContent(config, () => undefined)).toBe(true);
    await recordBuild(config, inputs);
    await edit('deals/aws-activate.md', (text) => BAD_CATEGORY(text).replace(/^title: .*$/m, 'title: Never served'));
    server = await site.start();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const deal = async (slug: string) => ((await (await fetch(`${server.url}/api/v1/deals?slug=${slug}`)).json()) as { deal: { title: string } }).deal;
  const health = async () => (await (await fetch(`${server.url}/api/v1/health`)).json()) as { status: string; problems: string[]; content: { problem?: string } };

  test('serves the last good build and says loudly what is wrong', async () => {
    expect((await deal('aws-activate')).title).toBe('AWS Activate Founders');
    expect(server.output).toContain(
      'content/deals/aws-activate.md:5 category: expected one of `cloud-credits` | `saas-discounts` | `accelerators`, got `sass-discounts`; did you mean `saas-discounts`?',
    );
    expect(server.output.some((line) => line.startsWith('CONTENT DOES NOT BUILD: serving the last good build;'))).toBe(true);
    const degraded = await health();
    expect(degraded.status).toBe('degraded');
    expect(degraded.problems).toEqual(['content_invalid']);
    expect(degraded.content.problem).toContain('content/deals/aws-activate.md:5 category:');
    expect(server.errors().map((line) => JSON.parse(line).event)).toEqual(['content_invalid']);
  });

  test('picks up the fixed file on SIGHUP', async () => {
    await edit('deals/aws-activate.md', (text) => text.replace(/^category: .*$/m, 'category: cloud-credits'));
    server.process.kill('SIGHUP');
    const deadline = Date.now() + 10_000;
    while ((await health()).problems.length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await health()).status).toBe('ok');
    expect((await deal('aws-activate')).title).toBe('Never served');
  });
});

test('npm start with content that does not build and no earlier good build refuses, saying why', async () => {
  const site = await project('no-build');
  await site.edit('deals/aws-activate.md', BAD_CATEGORY);
  const refused = await site.start().then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(refused).toMatch(/^server exited \(1\) before listening:/);
  expect(refused).toContain('content/deals/aws-activate.md:5 category:');
  expect(refused).toContain('content does not build and there is no earlier good build to serve: fix the problems above (npm run check lists them) and start again');
});

test('npm run build records what it built: npm start with the same settings serves it without building again', async () => {
  const site = await project('built-by-npm-run-build');
  // Inside the project, as dist/ is: the built server's chunks import the project's packages.
  const distDir = join(FIXTURES, '..', '..', '..', '.e2e', `npm-run-build-${process.pid}`);
  onTestFinished(() => rm(distDir, { recursive: true, force: true }));
  const env = { ...site.env, DIST_DIR: distDir };
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['scripts/build.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('exit', (exit) => resolve({ code: exit, output }));
  });
  expect(code, output).toBe(0);
  expect(existsSync(join(env.DIST_DIR, 'client', 'index.html'))).toBe(true);
  // What npm start decides first, with the same settings.
  expect(await prepareBuild(loadConfig(env), { print: () => undefined })).toBe('current');
  // Another address is another build (pages carry their canonical links).
  expect(await isBuildCurrent(loadConfig({ ...env, PORT: '4999' }))).toBe(false);
}, 120_000);
