/**
 * Serverless writes end to end (docs/deploying.md, "Serverless"): two Netlify function
 * instances, each its own process serving the function's entry by the handler contract
 * (tests/helpers/netlify-instance.ts; not the Netlify CLI), against one git host (`git
 * http-backend` on 127.0.0.1), one redis-server and one PostgreSQL, with a local HTTP server
 * standing in for Netlify's build hook. A cookie signed on A works on B; an admin write through
 * A is a commit on the host, served by A at once and by B after its pull (at most
 * CONTENT_PULL_SECONDS after the write, plus one fetch); the build hook is POSTed; the
 * 5-per-hour submission limit holds across A and B. Write latency: `npm run bench:writes`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server.ts';
import { createRemote } from '../helpers/git-remote.ts';
import { startNetlifyInstance, type NetlifyInstance } from '../helpers/netlify-instance.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, addAccount, submissionBody } from '../helpers/writes-harness.ts';

const TOKEN = 'netlify-writes-token-7a1e';
const PULL_SECONDS = 2;

let work: string;
let host: GitHttpServer;
let redis: RedisServer;
let postgres: PostgresServer;
let hookServer: Server;
const hookCalls: { body: string; at: number }[] = [];
let a: NetlifyInstance;
let b: NetlifyInstance;
let cookie: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-netlify-writes-'));
  await createRemote(join(FIXTURES, 'valid'), work);
  await buildGenerated(join(FIXTURES, 'valid'), join(work, 'generated'));
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method === 'POST') hookCalls.push({ body, at: Date.now() });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  [host, redis, postgres] = await Promise.all([startGitHttpServer(work, TOKEN), startRedisServer(), startPostgresServer()]);
  // The functions read accounts from the shared database, where `npm run admin` puts them with DATABASE_URL.
  addAccount(join(work, 'data'), ADMIN, { DATABASE_URL: postgres.url });
  const env = (name: string) => ({
    GENERATED_DIR: join(work, 'generated'),
    DATA_DIR: join(work, 'data'),
    CONTENT_DIR: join(work, 'no-such-folder'),
    CONTENT_GIT_URL: `${host.url}/remote.git`,
    CONTENT_GIT_TOKEN: TOKEN,
    CONTENT_PULL_SECONDS: String(PULL_SECONDS),
    SESSION_SECRET: 'one-secret-for-every-function-instance-0123456789',
    REDIS_URL: redis.url,
    DATABASE_URL: postgres.url,
    NETLIFY_BUILD_HOOK_URL: `http://127.0.0.1:${(hookServer.address() as { port: number }).port}/build_hooks/abc123`,
    // Each instance's clone in its own temp folder, as on two machines.
    TMPDIR: join(work, `tmp-${name}`),
  });
  execFileSync('mkdir', ['-p', join(work, 'tmp-a'), join(work, 'tmp-b')]);
  [a, b] = await Promise.all([startNetlifyInstance(env('a')), startNetlifyInstance(env('b'))]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([host?.stop(), redis?.stop(), postgres?.stop(), new Promise((resolve) => hookServer?.close(resolve))]);
  await rm(work, { recursive: true, force: true });
});

const call = async (instance: NetlifyInstance, method: string, path: string, body?: unknown, options: { cookie?: string; ip?: string } = {}) => {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: {
      Origin: instance.url.replace('http://', 'https://'),
      'X-Test-Client-Ip': options.ip ?? '203.0.113.30',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
};
const titleOn = async (instance: NetlifyInstance) => ((await call(instance, 'GET', '/api/v1/deals?slug=aws-activate')).body.deal as { title: string }).title;
const bareGit = (...args: string[]) =>
  execFileSync('git', args, { cwd: join(work, 'remote.git') })
    .toString('utf8')
    .trim();

test('a session signed on A is good on B (one SESSION_SECRET, no sticky sessions)', async () => {
  const signIn = await fetch(`${a.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { Origin: a.url.replace('http://', 'https://'), 'Content-Type': 'application/json', 'X-Test-Client-Ip': '203.0.113.30' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  expect(signIn.status, await signIn.clone().text()).toBe(200);
  // Over HTTPS (the platform's URL scheme) the cookie is __Host-deals_session.
  cookie = (signIn.headers.getSetCookie().find((c) => c.includes('deals_session=')) as string).split(';')[0] as string;
  expect(cookie).toMatch(/^__Host-deals_session=/);
  const onB = await call(b, 'GET', '/api/v1/auth/session', undefined, { cookie });
  expect(onB.status).toBe(200);
  expect((onB.body.user as { email: string }).email).toBe(ADMIN.email);
}, 30_000);

test('a write through A: committed on the host, served by A at once, by B after its pull; the build hook is POSTed', async () => {
  expect(await titleOn(b)).toBe('AWS Activate Founders');
  const hooksBefore = hookCalls.length;
  const put = await call(a, 'PUT', '/api/v1/deals', { slug: 'aws-activate', title: 'AWS Activate, edited on A' }, { cookie });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const writtenAt = Date.now();
  expect(bareGit('show', 'main:content/deals/aws-activate.md')).toContain('title: AWS Activate, edited on A');
  expect(await titleOn(a)).toBe('AWS Activate, edited on A');

  // The hook: one POST naming the pushed commit, in the background of the write.
  const deadline = Date.now() + 5000;
  while (hookCalls.length === hooksBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(hookCalls.length).toBe(hooksBefore + 1);
  expect(hookCalls.at(-1)?.body).toContain(bareGit('rev-parse', 'main'));

  // B: a request at least CONTENT_PULL_SECONDS after its last pull starts one; the next requests see the write.
  let seenAt: number | undefined;
  while (Date.now() - writtenAt < (PULL_SECONDS + 5) * 1000) {
    if ((await titleOn(b)) === 'AWS Activate, edited on A') {
      seenAt = Date.now();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(seenAt, 'B never served the write').toBeDefined();
  console.log(`B served A's write ${(((seenAt as number) - writtenAt) / 1000).toFixed(2)} s after it was acknowledged (CONTENT_PULL_SECONDS=${PULL_SECONDS})`);
  expect((seenAt as number) - writtenAt).toBeLessThan((PULL_SECONDS + 2) * 1000);
}, 60_000);

test('the 5-per-hour submission limit holds across A and B through Redis: the 6th is 429', async () => {
  const ip = '198.51.100.77';
  const statuses: number[] = [];
  for (let n = 0; n < 6; n++) statuses.push((await call(n % 2 === 0 ? a : b, 'POST', '/api/v1/submit-deal', submissionBody('Shared', n), { ip })).status);
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  // Another address still has its own five.
  expect((await call(b, 'POST', '/api/v1/submit-deal', submissionBody('Other', 0), { ip: '198.51.100.78' })).status).toBe(201);
}, 30_000);

// Speed is for the benchmark (`npm run bench:writes`); this checks writes in a row each land on the host.
test('10 admin PUTs in a row through the handler each commit, push and answer', async () => {
  const before = Number(bareGit('rev-list', '--count', 'main'));
  for (let n = 0; n < 10; n++) {
    const put = await call(a, 'PUT', '/api/v1/deals', { slug: 'aws-activate', title: `AWS Activate ${n}` }, { cookie });
    expect(put.status).toBe(200);
  }
  expect(Number(bareGit('rev-list', '--count', 'main'))).toBe(before + 10);
  const read = await call(a, 'GET', '/api/v1/deals?slug=aws-activate');
  expect((read.body as { deal: { title: string } }).deal.title).toBe('AWS Activate 9');
}, 120_000);
