/**
 * `npm run bench:writes [-- --deals N --writes W]`: how long an admin write takes to be
 * acknowledged (`PUT /api/v1/deals`, one field of one deal), the same write three ways in one
 * run, each a warm process answering W writes in a row after 3 unmeasured ones:
 *   1. the Node server on its own work tree (the default deploy): the baseline;
 *   2. the Node server committing through a git host over HTTPS (CONTENT_GIT_URL);
 *   3. a Netlify function instance (the handler contract, tests/helpers/netlify-instance.ts)
 *      through the same host: the serverless write of issue 17 (target: under 1 s median).
 * The host is `git http-backend` on 127.0.0.1 (tests/helpers/git-http-server.ts), so a real
 * git host adds its network round trips (two requests per push) to 2 and 3. The catalog is the
 * synthetic one (scripts/generate.ts); redis-server is there because a function signs in only
 * with a shared limit. Prints p50 and p95 for each and their ratio to the baseline.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startChildServer } from '../../tests/helpers/child-server.ts';
import { startGitHttpServer } from '../../tests/helpers/git-http-server.ts';
import { startNetlifyInstance } from '../../tests/helpers/netlify-instance.ts';
import { startRedisServer } from '../../tests/helpers/redis-server.ts';

const { values } = parseArgs({ options: { deals: { type: 'string', default: '5000' }, writes: { type: 'string', default: '30' } } });
const ROOT = resolve(import.meta.dirname, '..', '..');
const ADMIN = { email: 'bench-writer@localhost.test', password: 'bench-writer-password-1' };
const TOKEN = 'bench-writes-token';
const SECRET = 'one-secret-for-every-instance-of-the-write-benchmark';
const WARM_UP = 3;

const work = await mkdtemp(join(tmpdir(), 'bench-writes-'));
const stops: Array<() => Promise<void>> = [];
try {
  // The content: a git repository of the synthetic catalog, its bare copy on the host, the indexes, one admin.
  const source = join(work, 'source');
  run(process.execPath, [join(ROOT, 'scripts', 'generate.ts'), '--deals', values.deals, '--startups', '0', '--out', join(source, 'content')]);
  git(source, 'init', '-q', '-b', 'main');
  git(source, 'add', '-A');
  git(source, 'commit', '-q', '-m', 'Synthetic catalog');
  git(work, 'clone', '-q', '--bare', source, 'remote.git');
  const generatedDir = join(work, 'generated');
  run(process.execPath, [join(ROOT, 'scripts', 'build-content.ts')], { CONTENT_DIR: join(source, 'content'), GENERATED_DIR: generatedDir });
  const dataDir = join(work, 'data');
  run(process.execPath, [join(ROOT, 'scripts', 'admin.ts'), 'add', ADMIN.email, '--role', 'admin', '--password', ADMIN.password], { DATA_DIR: dataDir });
  // A deal's slug is its file's name.
  const slug = (readdirSync(join(source, 'content', 'deals')).sort()[0] ?? '').replace(/\.md$/, '');

  const [host, redis] = await Promise.all([startGitHttpServer(work, TOKEN), startRedisServer()]);
  stops.push(host.stop, redis.stop);
  const overHttps = { CONTENT_GIT_URL: `${host.url}/remote.git`, CONTENT_GIT_TOKEN: TOKEN, SESSION_SECRET: SECRET };

  console.log(`# Admin writes: PUT /api/v1/deals on a ${values.deals}-deal catalog, ${values.writes} in a row per process (after ${WARM_UP} unmeasured)`);
  console.log('');
  console.log('| process | store | p50 | p95 | p50 ratio to the baseline |');
  console.log('|---|---|---|---|---|');
  const localCopy = join(work, 'local');
  await cp(source, localCopy, { recursive: true });
  const local = await startChildServer({ contentDir: join(localCopy, 'content'), generatedDir, dataDir, env: { SESSION_SECRET: SECRET, RATE_LIMITS: 'off' } });
  stops.push(local.stop);
  const baseline = await timeWrites(local.url, slug);
  await local.stop();
  row('Node server (baseline)', 'its own work tree', baseline, baseline);

  const https = await startChildServer({ contentDir: join(work, 'no-work-tree'), generatedDir, dataDir, env: { ...overHttps, RATE_LIMITS: 'off', TMPDIR: await folder('tmp-node') } });
  stops.push(https.stop);
  row('Node server', 'git host over HTTPS', await timeWrites(https.url, slug), baseline);
  await https.stop();

  const fn = await startNetlifyInstance({
    ...overHttps,
    GENERATED_DIR: generatedDir,
    DATA_DIR: dataDir,
    CONTENT_DIR: join(work, 'no-work-tree'),
    REDIS_URL: redis.url,
    RATE_LIMITS: 'off',
    TMPDIR: await folder('tmp-fn'),
  });
  stops.push(fn.stop);
  row('Netlify function', 'git host over HTTPS', await timeWrites(fn.url, slug, fn.url.replace('http://', 'https://')), baseline);
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}

/** Sign in, then W + warm-up PUTs in a row, each changing the title; the measured times, sorted (ms). `origin`: the site as its browser names it (a function is reached over HTTPS). */
async function timeWrites(base: string, slug: string, origin = base): Promise<number[]> {
  const headers = { 'Content-Type': 'application/json', Origin: origin, 'X-Test-Client-Ip': '203.0.113.77' };
  const signIn = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers, body: JSON.stringify(ADMIN) });
  if (signIn.status !== 200) throw new Error(`sign-in at ${base}: ${signIn.status} ${await signIn.text()}`);
  const cookie = (signIn.headers.getSetCookie().find((c) => c.includes('deals_session=')) ?? '').split(';')[0] ?? '';
  const times: number[] = [];
  for (let n = 0; n < WARM_UP + Number(values.writes); n++) {
    const started = performance.now();
    const put = await fetch(`${base}/api/v1/deals`, { method: 'PUT', headers: { ...headers, Cookie: cookie }, body: JSON.stringify({ slug, title: `Benchmark title ${base.length}-${n}` }) });
    const elapsed = performance.now() - started;
    if (put.status !== 200) throw new Error(`write ${n} at ${base}: ${put.status} ${await put.text()}`);
    await put.arrayBuffer();
    if (n >= WARM_UP) times.push(elapsed);
  }
  return times.sort((a, b) => a - b);
}

function row(process: string, store: string, times: number[], baseline: number[]): void {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(`| ${process} | ${store} | ${ms(quantile(times, 0.5))} | ${ms(quantile(times, 0.95))} | ${(quantile(times, 0.5) / quantile(baseline, 0.5)).toFixed(2)} |`);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

async function folder(name: string): Promise<string> {
  const path = join(work, name);
  await mkdir(path, { recursive: true });
  return path;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@localhost.test', ...args], { cwd, stdio: 'ignore' });
}

function run(command: string, args: string[], env: Record<string, string> = {}): void {
  execFileSync(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}
