/**
 * The Netlify handler with CONTENT_GIT_URL: admin writes go to the git host over HTTP (the
 * HTTPS content store, store/http-git-store.ts) instead of answering 503. The host is a real
 * `git http-backend` on 127.0.0.1 with a token; the function has no clone but its /tmp one.
 * Sign-in on a function needs SESSION_SECRET and Redis (its guess limit is shared); several
 * instances at once: tests/integration/netlify-writes.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { STORE_COMMITTER } from '../../functions/store/store-rules.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.ts';
import { createRemote } from '../helpers/git-remote.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, addAccount } from '../helpers/writes-harness.ts';

const TOKEN = 'netlify-token-51c0';
const SITE = 'https://deals.example';
const ENV = ['GENERATED_DIR', 'DATA_DIR', 'CONTENT_GIT_URL', 'CONTENT_GIT_TOKEN', 'CONTENT_DIR', 'TMPDIR', 'SESSION_SECRET', 'REDIS_URL', 'NETLIFY_BUILD_HOOK_URL'];

let work: string;
let host: GitHttpServer;
let redis: RedisServer;
const savedTmp = process.env.TMPDIR;
let handler: (request: Request, context: { ip?: string; waitUntil?: (work: Promise<unknown>) => void }) => Promise<Response>;
/** What the handler left to finish after its answers (the platform's `waitUntil`). */
const background: Promise<unknown>[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-netlify-git-'));
  await createRemote(join(FIXTURES, 'valid'), work);
  await buildGenerated(join(FIXTURES, 'valid'), join(work, 'generated'));
  addAccount(join(work, 'data'), ADMIN);
  [host, redis] = await Promise.all([startGitHttpServer(work, TOKEN), startRedisServer()]);
  Object.assign(process.env, {
    SESSION_SECRET: 'a-session-secret-of-at-least-32-bytes-for-the-functions',
    REDIS_URL: redis.url,
    // A build hook that refuses every connection: the write must not notice (netlify-writes.test.ts has one that answers).
    NETLIFY_BUILD_HOOK_URL: 'http://127.0.0.1:9/build_hooks/unreachable',
    GENERATED_DIR: join(work, 'generated'),
    DATA_DIR: join(work, 'data'),
    CONTENT_GIT_URL: `${host.url}/remote.git`,
    CONTENT_GIT_TOKEN: TOKEN,
    // Not read for the store: the bundled folder of a deploy; the clone goes under /tmp.
    CONTENT_DIR: join(work, 'no-such-folder'),
    // The function's clone goes to the temp folder: this test's, removed with it.
    TMPDIR: work,
  });
  ({ default: handler } = await import('../../netlify/functions/api.ts'));
}, 120_000);

afterAll(async () => {
  for (const name of ENV) delete process.env[name];
  if (savedTmp !== undefined) process.env.TMPDIR = savedTmp;
  await host?.stop();
  await redis?.stop();
  await rm(work, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown, cookie?: string): Promise<Response> =>
  handler(
    new Request(`${SITE}${path}`, {
      method,
      headers: { Origin: SITE, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(cookie ? { Cookie: cookie } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    { ip: '203.0.113.20', waitUntil: (work) => background.push(work) },
  );

test('an admin create through the function is a commit on the git host (admin author, store committer) and is served at once', async () => {
  const signIn = await call('POST', '/api/v1/auth/login', { email: ADMIN.email, password: ADMIN.password });
  expect(signIn.status, await signIn.clone().text()).toBe(200);
  const cookie = (signIn.headers.getSetCookie().find((c) => c.includes('deals_session=')) as string).split(';')[0] as string;

  const created = await call(
    'POST',
    '/api/v1/deals',
    { slug: 'edge-credits', title: 'Edge credits', provider: 'Edge Co', category: 'cloud-credits', applicationUrl: 'https://edge.example/apply' },
    cookie,
  );
  expect(created.status, await created.clone().text()).toBe(200);
  const bare = join(work, 'remote.git');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: bare }).toString('utf8').trim();
  expect(git('log', '-1', '--format=%ae|%ce', 'main')).toBe(`${ADMIN.email}|${STORE_COMMITTER.email}`);
  expect(git('show', '--name-status', '--format=', 'main')).toBe('A\tcontent/deals/edge-credits.md');
  expect(git('show', 'main:content/deals/edge-credits.md')).toContain('title: Edge credits');

  const read = await call('GET', '/api/v1/deals?slug=edge-credits');
  expect(read.status).toBe(200);
  expect(((await read.json()) as { deal: { title: string } }).deal.title).toBe('Edge credits');
  // The unreachable build hook was tried in the background, and failed there (logged), not the write.
  await expect(Promise.all(background)).resolves.toBeDefined();
}, 60_000);
