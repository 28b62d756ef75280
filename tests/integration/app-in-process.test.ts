/**
 * The front door in process: `app.fetch(new Request(...), client)` with no port and no adapter,
 * for what the route table and the steps decide (issue 14, item 8). The real-server tests
 * (http-rules, http-hostile, hardening…) prove the Node adapter on top of the same app.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../functions/config.ts';
import { createDeps, type Deps } from '../../functions/deps.ts';
import { createApp, type App } from '../../functions/http/app.ts';
import { LazyRequest } from '../../functions/http/lazy-request.ts';
import { createLogger } from '../../functions/ops/log.ts';
import { GitStore } from '../../functions/store/git-store.ts';
import { createCatalog } from '../../src/catalog/catalog.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { expectErrorBody } from '../helpers/api-schemas.ts';
import { FIXTURES, gitContentCopy } from '../helpers/server.ts';

let work: string;
let deps: Deps;
let app: App;
const errors: string[] = [];
const client = { address: '203.0.113.7' };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-app-'));
  const contentDir = await gitContentCopy(join(FIXTURES, 'valid'), work);
  const built = runPipeline(await readContent(contentDir), { today: '2026-11-21' });
  if (!built.value) throw new Error('fixture does not build');
  const config = { ...loadConfig({ DATA_DIR: join(work, 'data'), METRICS_PATH: '/metrics' }), contentDir };
  const log = createLogger((line) => {
    if (line.includes('"level":"error"')) errors.push(line);
  });
  deps = createDeps(config, createCatalog(built.value.data, built.value.postings), await GitStore.open(contentDir), 'x'.repeat(64), log);
  app = createApp(deps);
});

afterAll(async () => {
  await deps.submissions.close();
  await rm(work, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}, from = client) => app.fetch(new Request(`http://deals.test${path}`, { headers }), from);

test('a search passes every step: version, request id, security headers, rate limit, CORS, ETag', async () => {
  const response = await get('/api/v1/deals?search=cloud&limit=2', { 'X-Request-Id': 'trace-1' });
  expect(response.status).toBe(200);
  const h = response.headers;
  expect([h.get('api-version'), h.get('x-request-id'), h.get('x-frame-options'), h.get('access-control-allow-origin')]).toEqual(['v1', 'trace-1', 'DENY', '*']);
  expect(h.get('ratelimit-policy')).toBe('"read";q=6000;w=60');
  expect(h.get('etag')).toMatch(/^"[\w-]+"$/);
  expect(h.get('strict-transport-security')).toBeNull();
  const body = (await response.json()) as { success: boolean; deals: unknown[] };
  expect(body.success).toBe(true);
  expect(body.deals.length).toBeLessThanOrEqual(2);
});

test('a repeat comes from the answer cache; If-None-Match answers 304', async () => {
  const first = await get('/api/v1/startups?limit=1');
  const again = await get('/api/v1/startups?limit=1');
  expect(again.headers.get('server-timing')).toBe('cache;desc="hit"');
  expect(await again.text()).toBe(await first.text());
  const revalidated = await get('/api/v1/startups?limit=1', { 'If-None-Match': first.headers.get('etag') ?? '' });
  expect(revalidated.status).toBe(304);
});

test('as the benchmark runs it (RATE_LIMITS=off, ANSWER_CACHE=off): the full budget in the fields, every answer computed, every search counted once', async () => {
  const config = { ...loadConfig({ DATA_DIR: join(work, 'data-bench'), RATE_LIMITS: 'off', ANSWER_CACHE: 'off' }), contentDir: deps.config.contentDir };
  const benchDeps = createDeps(
    config,
    deps.state().catalog,
    deps.store,
    'x'.repeat(64),
    createLogger(() => undefined),
  );
  const benchApp = createApp(benchDeps);
  const noted: string[] = [];
  benchDeps.searchGaps.note = (query) => void noted.push(query);
  try {
    for (let i = 0; i < 3; i++) {
      const response = await benchApp.fetch(new LazyRequest('GET', 'http://deals.test/api/v1/deals?search=cloud&limit=2', ['Accept-Encoding', 'br']) as unknown as Request, client);
      expect(response.status).toBe(200);
      expect(response.headers.get('server-timing')).toMatch(/^app;dur=/);
      expect(response.headers.get('content-encoding')).toBe('br');
      expect([response.headers.get('ratelimit-policy'), response.headers.get('ratelimit')]).toEqual(['"read";q=6000;w=60', '"read";r=6000;t=60']);
    }
    expect(noted).toEqual(['cloud', 'cloud', 'cloud']);
    const login = await benchApp.fetch(new Request('http://deals.test/api/v1/auth/session'), client);
    expect(login.headers.get('ratelimit-policy')).toBe('"auth";q=30;w=60');
  } finally {
    await benchDeps.submissions.close();
  }
});

test('the alias answers with a successor link; an https URL gets HSTS', async () => {
  const response = await app.fetch(new Request('https://deals.test/api/deals?limit=1'), client);
  expect(response.headers.get('link')).toBe('</api/v1/deals?limit=1>; rel="successor-version"');
  expect(response.headers.get('strict-transport-security')).toContain('max-age=');
});

test('unknown paths, wrong methods and TRACE get the SPEC error object from the one writer', async () => {
  const missing = await get('/api/v1/nothing');
  expect(missing.status).toBe(404);
  expect(expectErrorBody(await missing.json()).code).toBe('not_found');
  const wrong = await app.fetch(new Request('http://deals.test/api/v1/startups', { method: 'DELETE' }), client);
  expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  expect(expectErrorBody(await wrong.json()).code).toBe('method_not_allowed');
  // What the Node adapter sends for TRACE: a GET naming the real method.
  const trace = await app.fetch(new Request('http://deals.test/about/'), { ...client, method: 'TRACE' });
  expect([trace.status, trace.headers.get('allow'), trace.headers.get('api-version')]).toEqual([405, 'GET, HEAD', 'v1']);
});

test('CORS comes from the row: public reads are granted, admin operations and same-origin routes never', async () => {
  const preflight = (path: string, method: string) =>
    app.fetch(new Request(`http://deals.test${path}`, { method: 'OPTIONS', headers: { Origin: 'https://other.example', 'Access-Control-Request-Method': method } }), client);
  const read = await preflight('/api/v1/deals', 'GET');
  expect([read.status, read.headers.get('access-control-allow-origin'), read.headers.get('access-control-allow-methods')]).toEqual([204, '*', 'GET, HEAD, OPTIONS']);
  expect(read.headers.get('allow')).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS');
  for (const [path, method] of [
    ['/api/v1/deals', 'DELETE'],
    ['/api/v1/auth/login', 'POST'],
  ] as const) {
    const refused = await preflight(path, method);
    expect(refused.headers.get('access-control-allow-origin'), `${method} ${path}`).toBeNull();
    expect(refused.headers.get('access-control-allow-methods'), `${method} ${path}`).toBeNull();
  }
});

test('a route over its limit answers 429 with Retry-After before its handler runs', async () => {
  const from = { address: '198.51.100.20' };
  let last: Response | undefined;
  for (let i = 0; i < 31; i++) last = await get('/api/v1/auth/session', {}, from);
  expect(last?.status).toBe(429);
  expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(last?.headers.get('ratelimit')).toMatch(/^"auth";r=0;t=\d+$/);
  expect(expectErrorBody(await last?.json()).code).toBe('rate_limited');
  // An answer given early by a step still goes out through the steps before it, and its own.
  expect([last?.headers.get('api-version'), last?.headers.get('x-frame-options'), last?.headers.get('ratelimit-policy')]).toEqual(['v1', 'DENY', '"auth";q=30;w=60']);
  expect(last?.headers.get('x-request-id')).toBeTruthy();
});

test('documents and metrics are routed from the table; metrics only to this machine', async () => {
  const llms = await get('/llms.txt');
  expect([llms.status, llms.headers.get('content-type'), llms.headers.get('access-control-allow-origin')]).toEqual([200, 'text/plain; charset=utf-8', '*']);
  expect((await get('/metrics', {}, { address: '127.0.0.1' })).status).toBe(200);
  // From elsewhere the path is an ordinary page path: no site here, so 404.
  expect((await get('/metrics')).status).toBe(404);
});

test('a handler that fails unexpectedly is a bare 500 with the error logged, never a stack in the body', async () => {
  const status = deps.store.status.bind(deps.store);
  deps.store.status = () => Promise.reject(new Error('disk on fire at /secret/path'));
  try {
    const response = await get('/api/v1/health');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('/secret/path');
    expect(expectErrorBody(JSON.parse(text)).code).toBe('internal_error');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    // Every step adds its headers to an error answer too.
    expect([response.headers.get('api-version'), response.headers.get('access-control-allow-origin'), response.headers.get('ratelimit-policy')]).toEqual(['v1', '*', '"read";q=6000;w=60']);
    expect(errors.some((line) => line.includes('unhandled_error') && line.includes('disk on fire'))).toBe(true);
  } finally {
    deps.store.status = status;
    errors.length = 0;
  }
});

test('a route added by one row and one handler is routed, limited, granted CORS and documented', async () => {
  const response = await get('/api/categories');
  expect([response.status, response.headers.get('access-control-allow-origin'), response.headers.get('ratelimit-policy')]).toEqual([200, '*', '"read";q=6000;w=60']);
  expect(response.headers.get('link')).toBe('</api/v1/categories>; rel="successor-version"');
  const body = (await response.json()) as { deals: { slug: string; scope: string }[]; startups: { slug: string }[] };
  expect(body.deals.map((c) => c.slug)).toEqual(deps.state().catalog.categories.deals.map((c) => c.slug));
  const openapi = (await (await get('/openapi.json')).json()) as { paths: Record<string, { get?: { operationId: string } }> };
  expect(openapi.paths['/api/v1/categories']?.get?.operationId).toBe('listCategories');
});

test('where a request goes is decided by the path as sent, not by the URL with its dot segments resolved', async () => {
  // `new URL` makes this `/etc/passwd`; the client asked for something under /api.
  const response = await app.fetch(new Request('http://deals.test/api/%2e%2e/%2e%2e/etc/passwd'), { ...client, path: '/api/%2e%2e/%2e%2e/etc/passwd' });
  expect([response.status, response.headers.get('content-type')]).toEqual([404, 'application/json; charset=utf-8']);
  expect(expectErrorBody(await response.json()).code).toBe('not_found');
});
