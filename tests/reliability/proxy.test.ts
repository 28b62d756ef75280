/**
 * The path to production on one machine (issue 17): deploy/nginx.conf as shipped (only its
 * ports, certificate and log path replaced) in a real nginx from Debian, TLS with a self-signed
 * certificate for 127.0.0.1, in front of two instances (TRUST_PROXY_HOPS=1, one SESSION_SECRET,
 * one redis-server, clones of one bare git remote). Which instance answered a request is read
 * from nginx's access log (`upstream=` by the request id nginx passes to the app and the app
 * sends back as X-Request-Id). The container file and the systemd unit cannot run here (no
 * container engine, no running systemd): at the end the Dockerfile's shape is checked and the
 * unit goes through `systemd-analyze verify`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server.ts';
import { freePort } from '../helpers/free-port.ts';
import { cloneFor, createRemote } from '../helpers/git-remote.ts';
import { selfSignedCertificate, startNginx, type NginxServer } from '../helpers/nginx-server.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';
import { FIXTURES } from '../helpers/server.ts';
import { ADMIN, addAccount, callFrom, eventually, PROJECT_ROOT, submissionBody, uniqueWord, type CallOptions, type JsonResult } from '../helpers/writes-harness.ts';

const deployFile = (name: string): Promise<string> => readFile(join(PROJECT_ROOT, 'deploy', name), 'utf8');

let work: string;
let redis: RedisServer;
let a: ChildServer;
let b: ChildServer;
let nginx: NginxServer;
let ca: string;
let base: { https: string; http: string };

/** `text` with `from` replaced, which must occur exactly `times` times (so the example and this test cannot drift apart). */
function replaceExactly(text: string, from: string, to: string, times = 1): string {
  const found = text.split(from).length - 1;
  if (found !== times) throw new Error(`deploy/nginx.conf: expected ${times} × ${JSON.stringify(from)}, found ${found}; update the substitutions in proxy.test.ts`);
  return text.split(from).join(to);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-proxy-'));
  const remote = await createRemote(join(FIXTURES, 'valid'), work);
  redis = await startRedisServer();
  const dataDir = join(work, 'data');
  addAccount(dataDir, ADMIN);
  const env = { REDIS_URL: redis.url, CONTENT_REMOTE: 'origin', CONTENT_PULL_SECONDS: '1', TRUST_PROXY_HOPS: '1', SESSION_SECRET: 'one-secret-for-every-instance-32-bytes-or-more' };
  const [cloneA, cloneB] = await Promise.all([cloneFor(remote, work, 'a'), cloneFor(remote, work, 'b')]);
  [a, b] = await Promise.all([startChildServer({ ...cloneA, dataDir, env }), startChildServer({ ...cloneB, dataDir, env })]);

  const certificate = await selfSignedCertificate(work);
  ca = certificate.pem;
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  let site = await deployFile('nginx.conf');
  site = replaceExactly(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`);
  site = replaceExactly(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`);
  site = replaceExactly(site, '    listen [::]:80;\n', '');
  site = replaceExactly(site, '    listen [::]:443 ssl http2;\n', '');
  site = replaceExactly(site, 'server 127.0.0.1:4321 ', `server ${new URL(a.url).host} `);
  site = replaceExactly(site, 'server 127.0.0.1:4322 ', `server ${new URL(b.url).host} `);
  site = replaceExactly(site, '/etc/letsencrypt/live/deals.example.com/fullchain.pem', certificate.cert);
  site = replaceExactly(site, '/etc/letsencrypt/live/deals.example.com/privkey.pem', certificate.key);
  site = replaceExactly(site, '/var/log/nginx/deals-catalog.access.log', join(work, 'access.log'), 2);
  nginx = await startNginx(work, site, [httpPort, httpsPort]);
  base = { https: `https://127.0.0.1:${httpsPort}`, http: `http://127.0.0.1:${httpPort}` };
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await rm(work, { recursive: true, force: true });
});

/** A request through nginx over HTTPS, from the loopback address `from` (each one a client of its own). */
const viaProxy = (method: string, path: string, options: CallOptions & { from?: string } = {}): Promise<JsonResult> =>
  callFrom(options.from ?? '127.0.0.1', base.https, method, path, { ...options, ca });

/** Which instance answered each response, from nginx's access log (by the X-Request-Id nginx made). */
async function servedBy(results: readonly JsonResult[]): Promise<ChildServer[]> {
  const instances = new Map([a, b].map((server) => [new URL(server.url).host, server]));
  const ids = results.map((result) => result.headers.get('x-request-id') ?? '');
  // nginx writes the log line just after the answer: wait for the last one.
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = (await nginx.accessLog()).split('\n');
    const upstreams = ids.map((id) => / upstream=(\S+) /.exec(lines.find((line) => line.includes(` id=${id} `)) ?? '')?.[1]);
    if (upstreams.every((upstream) => upstream !== undefined) || Date.now() > deadline) {
      return upstreams.map((upstream, i) => {
        const server = instances.get(upstream ?? '');
        if (!server) throw new Error(`no instance in nginx's log for request ${ids[i]} (upstream ${upstream})`);
        return server;
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Send `count` requests one after the other (nginx takes turns: round robin) and check both instances answered. */
async function onBothInstances(count: number, send: (n: number) => Promise<JsonResult>): Promise<JsonResult[]> {
  const results: JsonResult[] = [];
  for (let n = 0; n < count; n += 1) results.push(await send(n));
  expect(new Set(await servedBy(results))).toEqual(new Set([a, b]));
  return results;
}

const HSTS = 'max-age=31536000; includeSubDomains';

describe('HTTPS at the proxy', () => {
  test('plain HTTP gets only a redirect to the same path over HTTPS; no instance sees it', async () => {
    const redirect = await callFrom('127.0.0.1', base.http, 'GET', '/deals/?search=cloud');
    expect(redirect.status).toBe(301);
    // deploy/nginx.conf redirects to the standard port, 443.
    expect(redirect.headers.get('location')).toBe('https://127.0.0.1/deals/?search=cloud');
    expect(redirect.headers.get('strict-transport-security')).toBeNull();
    // The log names the path without its query (a query may hold a mailed link's token).
    const logged = async () => (await nginx.accessLog()).split('\n').filter((line) => line.includes('"GET /deals/ HTTP/1.1" 301'));
    await eventually(async () => (await logged()).length > 0, 5_000);
    expect(await logged()).toEqual([expect.stringContaining(' upstream=- ')]);
    expect(await nginx.accessLog()).not.toContain('search=cloud');
  });

  test('over HTTPS the app sends Strict-Transport-Security, once, on both instances; a client cannot turn it off with X-Forwarded-Proto', async () => {
    const results = await onBothInstances(4, () => viaProxy('GET', '/api/v1/health', { headers: { 'X-Forwarded-Proto': 'http' } }));
    for (const result of results) {
      expect(result.status).toBe(200);
      // One value: nginx adds none of its own.
      expect(result.headers.get('strict-transport-security')).toBe(HSTS);
    }
  });
});

describe('sessions across instances', () => {
  let cookie: string;

  test('sign-in through the proxy sets the Secure __Host- cookie (the proxy vouches for HTTPS)', async () => {
    const signedIn = await viaProxy('POST', '/api/v1/auth/login', { body: { email: ADMIN.email, password: ADMIN.password } });
    expect(signedIn.status, signedIn.text).toBe(200);
    const line = signedIn.headers.getSetCookie().find((c) => c.startsWith('__Host-deals_session=')) ?? '';
    const attributes = line.split(';').map((attribute) => attribute.trim());
    expect(attributes).toContain('Secure');
    expect(attributes).toContain('HttpOnly');
    cookie = attributes[0] as string;
  });

  test('the one cookie is a session on both instances; without it, 401', async () => {
    const results = await onBothInstances(4, () => viaProxy('GET', '/api/v1/auth/session', { cookie }));
    for (const result of results) {
      expect(result.status, result.text).toBe(200);
      expect((result.body as { user: { email: string } }).user.email).toBe(ADMIN.email);
    }
    expect((await viaProxy('GET', '/api/v1/auth/session')).status).toBe(401);
  });

  test('a write through the proxy (Origin checked against the https origin nginx passes) reaches both instances; its page negotiates Markdown on both', async () => {
    const word = uniqueWord('proxied');
    const created = await viaProxy('POST', '/api/v1/deals', {
      cookie,
      body: { title: `Proxied ${word} credits`, provider: `Proxied ${word}`, category: 'cloud-credits', applicationUrl: `https://${word}.example/apply` },
    });
    expect(created.status, created.text).toBe(200);
    const slug = (created.body as { deal: { slug: string } }).deal.slug;
    for (const server of [a, b]) await eventually(async () => (await fetch(`${server.url}/api/v1/deals?slug=${slug}`)).status === 200);

    // The deal's page, changed since the build, has its Markdown twin on every instance.
    const twins = await onBothInstances(4, () => viaProxy('GET', `/deals/${slug}/`, { headers: { Accept: 'text/markdown' } }));
    for (const twin of twins) {
      expect(twin.status, twin.text).toBe(200);
      expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(twin.headers.get('vary')).toMatch(/^Accept\b/);
      expect(twin.text).toContain(`Proxied ${word} credits`);
    }
    // The app's own compression passes through nginx untouched (nginx's gzip is off): same coding, strong tag kept.
    const compressed = await viaProxy('GET', '/api/v1/deals?limit=50', { headers: { 'Accept-Encoding': 'br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('etag')).toMatch(/^"/);
  });
});

describe('client addresses and limits shared through Redis', () => {
  const submission = (n: number) => submissionBody('Proxy', n);
  const submit = (from: string, n: number, headers: Record<string, string> = {}) => viaProxy('POST', '/api/v1/submit-deal', { from, headers, body: submission(n) });

  test('the 5-per-hour submission limit counts the address nginx saw, over both instances', async () => {
    const accepted = await onBothInstances(5, (n) => submit('127.0.0.81', n));
    expect(accepted.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const sixth = await submit('127.0.0.81', 6);
    expect(sixth.status, sixth.text).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client through the same proxy (every connection to the app comes from nginx's 127.0.0.1) has its own budget.
    expect((await submit('127.0.0.82', 7)).status).toBe(201);
  });

  test("an X-Forwarded-For the client sends is not believed: it neither escapes its limit nor spends another client's", async () => {
    const spoofed = await onBothInstances(2, (n) => submit('127.0.0.81', 10 + n, { 'X-Forwarded-For': '203.0.113.9' }));
    expect(spoofed.map((r) => r.status)).toEqual([429, 429]);
    // Claiming to be the client that is used up does not make 127.0.0.83 one.
    expect((await submit('127.0.0.83', 12, { 'X-Forwarded-For': '127.0.0.81' })).status).toBe(201);
  });
});

describe('what ran', () => {
  test('no instance logged an error, and nginx none above a warning', async () => {
    expect([...a.errors(), ...b.errors()]).toEqual([]);
    expect((await nginx.errorLog()).split('\n').filter((line) => /\[(error|crit|alert|emerg)\]/.test(line))).toEqual([]);
  });
});

/**
 * The arguments `npm start` gives node, the environment it sets before them (`NAME=value`, or
 * `NAME=${NAME:-value}`, which keeps an operator's own: the value), and the Node.js version the
 * project depends on.
 */
async function startScript(): Promise<{ start: string[]; env: Record<string, string>; nodeVersion: string | undefined }> {
  const manifest = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string }; dependencies: Record<string, string> };
  const words = manifest.scripts.start.split(' ');
  const env: Record<string, string> = {};
  while (/^\w+=/.test(words[0] ?? '')) {
    const [name, value] = assignment(words.shift() as string);
    env[name] = /^\$\{(\w+):-(.*)\}$/.exec(value)?.[2] ?? value;
  }
  const [node, ...start] = words;
  expect(node).toBe('node');
  return { start, env, nodeVersion: manifest.dependencies.node };
}

/** `NAME=value` as its name and value (the value may hold `=`). */
function assignment(pair: string): [string, string] {
  const at = pair.indexOf('=');
  return [pair.slice(0, at), pair.slice(at + 1)];
}

/** A Dockerfile's instructions (continuation lines joined, comments dropped), by stage. */
function dockerStages(text: string): { name: string; from: string; lines: string[] }[] {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: { name: string; from: string; lines: string[] }[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) stages.push({ from: from[1] as string, name: from[2] ?? '', lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

describe('the container file and the systemd unit (no container engine or systemd here: their shape)', () => {
  test('Dockerfile: dependencies, build and a runtime with production dependencies only, run as a non-root user with a health check and volumes', async () => {
    const text = await deployFile('Dockerfile');
    expect(text).toMatch(/^ARG NODE_IMAGE=node:24-[\w-]+$/m);
    const stages = dockerStages(text);
    expect(stages.map((stage) => stage.name)).toEqual(['deps', 'build', 'runtime']);
    const runs = (stage: { lines: string[] }) => stage.lines.filter((line) => line.startsWith('RUN ')).join('\n');
    const [deps, build, runtime] = stages as [(typeof stages)[0], (typeof stages)[0], (typeof stages)[0]];
    expect(runs(deps)).toMatch(/npm ci(?! --omit)/);
    expect(runs(build)).toContain('npm run build');
    expect(runtime.from).toBe('${NODE_IMAGE}');
    expect(runs(runtime)).toContain('npm ci --omit=dev');
    // The server bundle is made in the image, after the last file it is made from is in place.
    const bundled = runtime.lines.findIndex((line) => line.startsWith('RUN ') && line.includes('scripts/bundle-server.ts'));
    expect(bundled).toBeGreaterThan(runtime.lines.findLastIndex((line) => line.startsWith('COPY ') && !line.includes('--chown')));
    expect(text).not.toMatch(/npm install/);
    // Every stage copied from is an earlier one.
    for (const [i, stage] of stages.entries()) {
      for (const line of stage.lines) {
        const source = /--from=(\S+)/.exec(line)?.[1];
        if (source) expect(stages.slice(0, i).map((s) => s.name)).toContain(source);
      }
    }
    // What `npm start` reads at run time reaches the runtime stage.
    const copied = runtime.lines.filter((line) => line.startsWith('COPY ')).join('\n');
    for (const needed of ['package.json', 'package-lock.json', 'astro.config.mjs', '/app/functions', '/app/scripts', '/app/src', '/app/public', '/app/generated', '/app/dist'])
      expect(copied).toContain(needed);

    const last = (keyword: string) => runtime.lines.filter((line) => line.startsWith(`${keyword} `)).at(-1) ?? '';
    const user = last('USER').slice(5).trim();
    expect(user).not.toMatch(/^(|root|0)(:.*)?$/);
    // The health check's command, run here against an instance (the image's `node` is Node.js 24 too), and against nothing.
    const probe = JSON.parse(/CMD (\[.*\])$/.exec(last('HEALTHCHECK'))?.[1] ?? '[]') as string[];
    expect(probe[0]).toBe('node');
    const check = (port: string) => spawnSync(process.execPath, probe.slice(1), { env: { PORT: port }, timeout: 10_000 }).status;
    expect(check(new URL(a.url).port)).toBe(0);
    expect(check(String(await freePort()))).toBe(1);
    const volumes = JSON.parse(last('VOLUME').slice(7)) as string[];
    const env = Object.fromEntries(runtime.lines.filter((line) => line.startsWith('ENV ')).flatMap((line) => line.slice(4).trim().split(/\s+/).map(assignment)));
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.TRUST_PROXY_HOPS).toBeUndefined();
    expect(volumes).toContain(env.DATA_DIR);
    expect(volumes.some((volume) => env.CONTENT_DIR?.startsWith(`${volume}/`))).toBe(true);
    expect(last('EXPOSE')).toBe(`EXPOSE ${env.PORT}`);
    // `npm start` itself, on the project's Node.js (a production dependency, so `npm ci --omit=dev` installs it).
    const { start, env: startEnv, nodeVersion } = await startScript();
    expect(JSON.parse(last('CMD').slice(4))).toEqual(['node_modules/.bin/node', ...start]);
    // What `npm start` sets in its environment, the image sets too.
    for (const [name, value] of Object.entries(startEnv)) expect(env[name], name).toBe(value);
    expect(nodeVersion).toMatch(/^24\./);

    const ignored = (await readFile(join(PROJECT_ROOT, '.dockerignore'), 'utf8')).split('\n');
    for (const kept of ['.git', 'node_modules', '.data', '.env', 'generated', 'dist']) expect(ignored).toContain(kept);
  });

  test('systemd unit: systemd-analyze verify finds nothing; a dedicated user, the server itself as the main process, SIGHUP on reload, writable only where it writes', async () => {
    const text = await deployFile('deals-catalog@.service');
    // Verified as one instance, where the code would be: this checkout stands in for /opt/deals-catalog.
    const unit = join(work, 'deals-catalog@4321.service');
    await writeFile(unit, text.replaceAll('/opt/deals-catalog', PROJECT_ROOT));
    let report: string;
    try {
      report = execFileSync('systemd-analyze', ['verify', unit], { stdio: 'pipe', encoding: 'utf8' });
    } catch (error) {
      const problem = error as NodeJS.ErrnoException & { stderr?: Buffer };
      if (problem.code === 'ENOENT') throw new Error('systemd-analyze is not installed: apt-get install systemd', { cause: error });
      throw new Error(`systemd-analyze verify failed:\n${problem.stderr?.toString() ?? String(error)}`, { cause: error });
    }
    expect(report).toBe('');
    const settings = new Map<string, string[]>();
    for (const [, key, value] of text.matchAll(/^(\w+)=(.*)$/gm)) settings.set(key as string, [...(settings.get(key as string) ?? []), value as string]);
    const one = (key: string) => settings.get(key)?.at(-1);
    expect(one('User')).toMatch(/^(?!root$)\w+$/);
    const { start, env: startEnv } = await startScript();
    expect(one('ExecStart')).toBe(['/opt/deals-catalog/node_modules/.bin/node', ...start].join(' '));
    expect(one('ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    expect(one('Restart')).toBe('on-failure');
    expect(one('EnvironmentFile')).toBeDefined();
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('ProtectSystem')).toBe('strict');
    // V8 compiles code at run time: this would stop the server.
    expect(settings.has('MemoryDenyWriteExecute')).toBe(false);
    // Every folder the server writes is writable under ProtectSystem=strict.
    const env = Object.fromEntries((settings.get('Environment') ?? []).flatMap((line) => line.split(/\s+/).map(assignment)));
    expect(env.PORT).toBe('%i');
    // What `npm start` sets in its environment, the unit sets too.
    for (const [name, value] of Object.entries(startEnv)) expect(env[name], name).toBe(value);
    const writable = (settings.get('ReadWritePaths') ?? []).flatMap((line) => line.split(/\s+/)).filter((path) => !path.startsWith('-'));
    for (const name of ['CONTENT_DIR', 'DATA_DIR', 'GENERATED_DIR', 'DIST_DIR']) {
      const folder = env[name] ?? '';
      expect(
        writable.some((path) => folder === path || folder.startsWith(`${path}/`)),
        `${name}=${folder}`,
      ).toBe(true);
    }
  });
});
