/**
 * What the server loads to start: no module of the write paths (the content pipeline's YAML,
 * front matter and diffs, ajv, pg), which took about a tenth of every start; they load with the
 * first request that needs them, and that request is answered as before
 * (functions/http/loaded-on-first-use.ts).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';
import { ADMIN, addAccount, call, login } from '../helpers/writes-harness.ts';

/** Packages only writes, submissions and a configured PostgreSQL use. */
const WRITE_PACKAGES = ['yaml', 'gray-matter', 'diff', 'js-yaml', 'ajv', 'ajv-formats', 'pg'];
const PIPELINE = '/src/pipeline/parse.ts';
/** Packages that make the server bundle (scripts/_server-bundle.ts): never needed to serve. */
const BUNDLING_PACKAGES = ['esbuild', 'acorn'];
/** Packages the site's static files need, loaded with the first file served (functions/site/static-files.ts). */
const STATIC_FILE_PACKAGES = ['mime'];

let work: string;
let server: ChildServer;
let moduleLog: string;

const loaded = (): string[] => readFileSync(moduleLog, 'utf8').split('\n').filter(Boolean);
const packagesLoaded = (): string[] => [
  ...new Set(
    loaded()
      .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
      .filter((name) => name !== undefined),
  ),
];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-start-modules-'));
  const contentDir = await gitContentCopy(join(FIXTURES, 'valid'), work);
  const generatedDir = join(work, 'generated');
  await buildGenerated(contentDir, generatedDir);
  const dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
  moduleLog = join(work, 'modules.log');
  server = await startChildServer({
    contentDir,
    generatedDir,
    dataDir,
    env: { MODULE_LOG: moduleLog, NODE_OPTIONS: `--import ${join(import.meta.dirname, '..', 'helpers', 'module-log.ts')}`, SESSION_SECRET: 'start-modules-secret-of-at-least-32-bytes' },
  });
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('modules loaded at start', () => {
  test('reads are answered without loading any module of the write paths', async () => {
    for (const path of ['/api/v1/deals', '/api/v1/deals?search=cloud', '/api/v1/startups', '/api/v1/health', '/llms.txt', '/openapi.json']) {
      expect((await call(server.url, 'GET', path)).status, path).toBe(200);
    }
    // The log is written as modules load: it cannot be empty when the hook ran.
    expect(loaded().some((url) => url.endsWith('/functions/server.ts'))).toBe(true);
    expect(packagesLoaded().filter((name) => WRITE_PACKAGES.includes(name))).toEqual([]);
    expect(loaded().filter((url) => url.endsWith(PIPELINE))).toEqual([]);
    expect(packagesLoaded().filter((name) => BUNDLING_PACKAGES.includes(name))).toEqual([]);
    expect(packagesLoaded().filter((name) => STATIC_FILE_PACKAGES.includes(name))).toEqual([]);
  });

  test('the first admin write loads them and is answered as always; a submission loads ajv', async () => {
    const cookie = await login(server.url, ADMIN);
    const created = await call(server.url, 'POST', '/api/v1/deals', {
      cookie,
      body: { slug: 'first-write', title: 'First write', provider: 'First Co', category: 'cloud-credits', applicationUrl: 'https://first.example/apply' },
    });
    expect(created.status, created.text).toBe(200);
    expect(loaded().some((url) => url.endsWith(PIPELINE))).toBe(true);
    expect(packagesLoaded()).toEqual(expect.arrayContaining(['yaml', 'gray-matter', 'diff']));
    expect((await call(server.url, 'GET', '/api/v1/deals?slug=first-write')).status).toBe(200);

    const refused = await call(server.url, 'POST', '/api/v1/submit-deal', { body: { company_name: 'X' } });
    expect(refused.status, refused.text).toBe(400);
    expect(packagesLoaded()).toContain('ajv');
    expect(packagesLoaded()).not.toContain('pg');
  });
});
