/**
 * The Netlify handler with CONTENT_GIT_URL: admin writes go to the git host over HTTP (the
 * HTTPS content store, store/http-git-store.ts) instead of answering 503. The host is a real
 * `git http-backend` on 127.0.0.1 with a token; the function has no clone but its /tmp one.
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
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, addAccount } from '../helpers/writes-harness.ts';

const TOKEN = 'netlify-token-51c0';
const SITE = 'https://deals.example';
const ENV = ['GENERATED_DIR', 'DATA_DIR', 'CONTENT_GIT_URL', 'CONTENT_GIT_TOKEN', 'CONTENT_DIR', 'TMPDIR'];

let work: string;
let host: GitHttpServer;
const savedTmp = process.env.TMPDIR;
let handler: (request: Request, context: { ip?: string }) => Promise<Response>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-netlify-git-'));
  await createRemote(join(FIXTURES, 'valid'), work);
  await buildGenerated(join(FIXTURES, 'valid'), join(work, 'generated'));
  addAccount(join(work, 'data'), ADMIN);
  host = await startGitHttpServer(work, TOKEN);
  Object.assign(process.env, {
    GENERATED_DIR: join(work, 'generated'),
    DATA_DIR: join(work, 'data'),
    CONTENT_GIT_URL: `${host.url}/remote.git`,
    CONTENT_GIT_TOKEN: TOKEN,
    // Not read for the store: the bundled folder of a deploy; the clone goes under /tmp.
    CONTENT_DIR: join(work, 'no-such-folder'),
    // The function's clone goes to the temp folder: this test's, removed with it.
    TMPDIR: work,
  });
  ({ default: handler } = await import('../../functions/adapters/netlify.ts'));
}, 120_000);

afterAll(async () => {
  for (const name of ENV) delete process.env[name];
  if (savedTmp !== undefined) process.env.TMPDIR = savedTmp;
  await host?.stop();
  await rm(work, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown, cookie?: string): Promise<Response> =>
  handler(
    new Request(`${SITE}${path}`, {
      method,
      headers: { Origin: SITE, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(cookie ? { Cookie: cookie } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    { ip: '203.0.113.20' },
  );

test('an admin create through the function is a commit on the git host (admin author, store committer) and is served at once', async () => {
  const signIn = await call('POST', '/api/v1/auth/login', { email: ADMIN.email, password: ADMIN.password });
  expect(signIn.status, await signIn.clone().text()).toBe(200);
  const cookie = (signIn.headers.getSetCookie().find((c) => c.includes('deals_session=')) as string).split(';')[0] as string;

  const created = await call('POST', '/api/v1/deals', { slug: 'edge-credits', title: 'Edge credits', provider: 'Edge Co', category: 'cloud-credits', applicationUrl: 'https://edge.example/apply' }, cookie);
  expect(created.status, await created.clone().text()).toBe(200);
  const bare = join(work, 'remote.git');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: bare }).toString('utf8').trim();
  expect(git('log', '-1', '--format=%ae|%ce', 'main')).toBe(`${ADMIN.email}|${STORE_COMMITTER.email}`);
  expect(git('show', '--name-status', '--format=', 'main')).toBe('A\tcontent/deals/edge-credits.md');
  expect(git('show', 'main:content/deals/edge-credits.md')).toContain('title: Edge credits');

  const read = await call('GET', '/api/v1/deals?slug=edge-credits');
  expect(read.status).toBe(200);
  expect(((await read.json()) as { deal: { title: string } }).deal.title).toBe('Edge credits');
}, 60_000);
