/**
 * Holding up under hostile clients, on the real server (issue 6, items 1, 2 and 5; DESIGN
 * "general rate limit", "client IP"; SECURITY.md): the per-route limits and their headers,
 * the security headers on every kind of response, HSTS and X-Forwarded-* only behind a trusted
 * proxy, body limits, request ids in answers and logs, health, and bounded Prometheus metrics.
 * Distinct clients are distinct loopback source addresses (127.x.y.z).
 */
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { RATE_POLICIES, type PolicyName } from '../../functions/http/rate-limits.ts';
import { expectErrorBody } from '../helpers/api-schemas.ts';
import { rawRequest } from '../helpers/http.ts';
import { expectSecurityHeaders } from '../helpers/security-headers.ts';
import { FIXTURES, startTestServer, useTestServer, type TestServer } from '../helpers/server.ts';
import { call, callFrom, expectError, git, type JsonResult } from '../helpers/writes-harness.ts';

// With a small built site, so pages, twins, files and the 404 page are real files served by the adapter.
const server = useTestServer(join(FIXTURES, 'valid'), {}, { site: join(FIXTURES, '..', 'site') });

/** A valid submission body, distinct per `n` (so none is a duplicate of another). */
const submission = (n: number) => ({
  company_name: `Hardening Co ${n}`,
  website_url: `https://hardening-${n}.example`,
  benefit_description: 'Twenty percent off the first year for startups.',
  category: 'saas',
  deal_value: '20% off',
  redemption_link: `https://hardening-${n}.example/startups`,
});

/** `count` requests in a row from one source address; the answers in order. */
async function burst(from: string, count: number, method: string, path: string, headers: Record<string, string> = {}): Promise<JsonResult[]> {
  const answers: JsonResult[] = [];
  for (let i = 0; i < count; i++) answers.push(await callFrom(from, server.url, method, path, { headers }));
  return answers;
}

describe('rate limits on every /api route (one policy table)', () => {
  test.each<[string, string, PolicyName]>([
    ['GET', '/api/v1/deals?limit=1', 'read'],
    ['GET', '/api/deals?limit=1', 'read'],
    ['GET', '/api/v1/startups', 'read'],
    ['GET', '/api/v1/health', 'read'],
    ['GET', '/api/v1/no-such-route', 'read'],
    ['HEAD', '/api/v1/deals', 'read'],
    ['POST', '/api/v1/deals', 'write'],
    ['DELETE', '/api/v1/deals?slug=x', 'write'],
    ['GET', '/api/v1/admin/submissions', 'write'],
    ['GET', '/api/v1/auth/session', 'auth'],
    ['POST', '/api/v1/auth/login', 'auth'],
    ['POST', '/api/mcp', 'mcp'],
  ])('%s %s is counted against "%s" and says so in RateLimit-Policy and RateLimit', async (method, path, policy) => {
    const answer = await callFrom('127.0.10.1', server.url, method, path, { body: method === 'POST' ? {} : undefined });
    const { points, seconds } = RATE_POLICIES[policy];
    expect(answer.headers.get('ratelimit-policy')).toBe(`"${policy}";q=${points};w=${seconds}`);
    expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`^"${policy}";r=\\d+;t=\\d+$`));
  });

  test('the policies: generous for reads, tighter for sign-in and writes, 5 per hour for accepted submissions', () => {
    const perMinute = (name: PolicyName) => (RATE_POLICIES[name].points * 60) / RATE_POLICIES[name].seconds;
    expect(perMinute('read')).toBeGreaterThanOrEqual(1000);
    expect(perMinute('auth')).toBeLessThan(perMinute('write'));
    expect(perMinute('write')).toBeLessThan(perMinute('read'));
  });

  test('the remaining budget counts down per address', async () => {
    const remaining = (answer: JsonResult) => Number(/;r=(\d+);/.exec(answer.headers.get('ratelimit') ?? '')?.[1]);
    const [first, second] = await burst('127.0.11.1', 2, 'GET', '/api/v1/startups');
    expect(remaining(second as JsonResult)).toBe(remaining(first as JsonResult) - 1);
    const other = await callFrom('127.0.11.2', server.url, 'GET', '/api/v1/startups');
    expect(remaining(other)).toBe(RATE_POLICIES.read.points - 1);
  });

  test('a spent budget is 429 rate_limited with Retry-After for that policy and address only', async () => {
    const { points } = RATE_POLICIES.auth;
    const answers = await burst('127.0.12.1', points + 1, 'GET', '/api/v1/auth/session');
    expect(answers.slice(0, points).map((a) => a.status)).toEqual(Array(points).fill(401));
    const limited = expectError(answers.at(-1) as JsonResult, 429, 'rate_limited');
    expect(limited.hint).toMatch(/Wait \d+ seconds/);
    const after = answers.at(-1) as JsonResult;
    const retryAfter = Number(after.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(RATE_POLICIES.auth.seconds);
    expect(after.headers.get('ratelimit')).toMatch(/^"auth";r=0;t=\d+$/);
    // Other policies of the same address, and the same policy of another address, still answer.
    expect((await callFrom('127.0.12.1', server.url, 'GET', '/api/v1/deals?limit=1')).status).toBe(200);
    expect((await callFrom('127.0.12.2', server.url, 'GET', '/api/v1/auth/session')).status).toBe(401);
    // X-Forwarded-For is not trusted by default: a forged one does not buy a fresh budget.
    const forged = await callFrom('127.0.12.1', server.url, 'GET', '/api/v1/auth/session', { headers: { 'X-Forwarded-For': '198.51.100.7' } });
    expectError(forged, 429, 'rate_limited');
  });
});

describe('security headers on every response', () => {
  const SAMPLES: [string, string, number][] = [
    ['GET', '/api/v1/deals?limit=1', 200],
    ['GET', '/api/v1/deals?limit=0', 400],
    ['GET', '/api/v1/deals?slug=no-such-deal', 404],
    ['GET', '/api/v1/no-such-route', 404],
    ['PATCH', '/api/v1/startups', 405],
    ['TRACE', '/api/v1/deals', 405],
    ['OPTIONS', '/api/v1/deals', 204],
    ['GET', '/llms.txt', 200],
    ['GET', '/openapi.json', 200],
    ['GET', '/.well-known/agent-card.json', 200],
    ['GET', '/deals/', 200],
    ['GET', '/deals/index.md', 200],
    ['GET', '/assets/site.css', 200],
    ['GET', '/no-such-page/', 404],
    ['GET', '/_internal/metrics', 200],
  ];

  test.each(SAMPLES)('%s %s', async (method, path, status) => {
    const response = await rawRequest(server.url, method, path);
    expect(response.status).toBe(status);
    expectSecurityHeaders((name) => response.headers[name] as string | undefined, `${method} ${path}`);
    // Plain http on loopback: no HSTS, whatever a client claims about the scheme.
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  test("the built page and the 404 page are the site's own HTML files", async () => {
    expect(String((await rawRequest(server.url, 'GET', '/deals/')).headers['content-type'])).toMatch(/^text\/html/);
    const missing = await rawRequest(server.url, 'GET', '/no-such-page/');
    expect(missing.body.toString('utf8')).toContain('Not found (fixture)');
  });

  test('X-Forwarded-Proto: https from an untrusted client gives no HSTS and no https:// links', async () => {
    const response = await rawRequest(server.url, 'GET', '/api/v1/deals?limit=1', { 'x-forwarded-proto': 'https' });
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('request bodies are capped', () => {
  test('a submission over 256 KB is 413 with the error object, and nothing is stored', async () => {
    const submissions = join(server.config.dataDir, 'submissions', 'pending');
    const before = git(join(server.config.contentDir, '..'), 'rev-parse', 'HEAD');
    const huge = { ...submission(1), benefit_description: 'x'.repeat(300 * 1024) };
    const answer = await call(server.url, 'POST', '/api/v1/submit-deal', { body: huge });
    expect(answer.status).toBe(413);
    const error = expectErrorBody(answer.body);
    expect(error.error).toMatch(/larger than 262144 bytes/);
    expect(readdirSafe(submissions)).toEqual([]);
    expect(git(join(server.config.contentDir, '..'), 'rev-parse', 'HEAD')).toBe(before);
    // The connection was closed after the early answer; the next request is served normally.
    expect((await call(server.url, 'GET', '/api/v1/deals?limit=1')).status).toBe(200);
  });

  test('a declared Content-Length over the cap is answered 413 at once, without waiting for the body', async () => {
    const url = new URL(server.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        // Headers only: 10 MB announced, none sent. The answer must not wait for it.
        socket.write(`POST /api/v1/submit-deal HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n`);
      });
      let text = '';
      socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
        if (text.includes('\r\n\r\n') && text.trimEnd().endsWith('}')) socket.end();
      });
      socket.on('end', () => resolve(text));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply.toLowerCase()).toContain('connection: close');
    expectErrorBody(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)));
  });
});

describe('request ids and logs', () => {
  test('each response has its own id; a well-formed id from a proxy is kept, anything else replaced', async () => {
    const a = await call(server.url, 'GET', '/api/v1/deals?limit=1');
    const b = await call(server.url, 'GET', '/api/v1/deals?limit=1');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    const kept = await call(server.url, 'GET', '/api/v1/health', { headers: { 'X-Request-Id': 'edge-42.abc' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-42.abc');
    const replaced = await call(server.url, 'GET', '/api/v1/health', { headers: { 'X-Request-Id': `bad id <script>${'x'.repeat(80)}` } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a write is logged as one JSON object carrying the id echoed in X-Request-Id', async () => {
    const answer = await callFrom('127.0.14.1', server.url, 'POST', '/api/v1/submit-deal', { body: { company_name: 'x' } });
    expectError(answer, 400, 'validation_error');
    const id = answer.headers.get('x-request-id');
    const entry = server.lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => e.requestId === id);
    expect(entry).toMatchObject({ level: 'info', event: 'request', method: 'POST', path: '/api/v1/submit-deal', status: 400 });
    expect(typeof entry?.time).toBe('string');
    expect(typeof entry?.ms).toBe('number');
  });
});

describe('health', () => {
  test('liveness, catalog version, content commit, store and Redis status', async () => {
    const answer = await call(server.url, 'GET', '/api/v1/health');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const head = git(join(server.config.contentDir, '..'), 'rev-parse', 'HEAD').trim();
    expect(answer.body).toMatchObject({
      success: true,
      status: 'ok',
      catalogVersion: expect.stringMatching(/^\w+$/),
      contentCommit: head,
      store: { writable: true },
      content: { indexedCommit: head, remote: null },
      redis: 'disabled',
    });
  });
});

describe('Prometheus metrics', () => {
  /** The metrics text as `name{labels}` → value. */
  async function samples(base: string, path = '/_internal/metrics'): Promise<Map<string, number>> {
    const response = await rawRequest(base, 'GET', path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const lines = response.body
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    // The text format: a metric name, optional labels, a float (exponents, NaN in any case as Go's parser reads it, and ±Inf).
    for (const line of lines) expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? (-?[\d.]+(e[+-]?\d+)?|[Nn]a[Nn]|[+-]Inf)$/);
    return new Map(lines.map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]));
  }

  test('requests are counted by route, method and status, with a latency histogram', async () => {
    const key = 'http_requests_total{route="/api/v1/startups",method="GET",status="200"}';
    const before = (await samples(server.url)).get(key) ?? 0;
    await call(server.url, 'GET', '/api/v1/startups?country=DE');
    await call(server.url, 'GET', '/api/startups?country=FR');
    const after = await samples(server.url);
    expect(after.get(key)).toBe(before + 2);
    expect(after.get('http_request_duration_seconds_count{route="/api/v1/startups"}')).toBeGreaterThanOrEqual(2);
    expect(after.get('http_request_duration_seconds_bucket{le="+Inf",route="/api/v1/startups"}')).toBe(after.get('http_request_duration_seconds_count{route="/api/v1/startups"}'));
  });

  // (GC durations appear once a collection has happened, which a short test cannot count on.)
  test("prom-client's default process metrics come along: event-loop lag, heap, CPU, memory", async () => {
    const names = new Set([...(await samples(server.url)).keys()].map((key) => key.replace(/\{.*$/, '')));
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_uptime_seconds'])
      expect(names, name).toContain(name);
  });

  test('invented API paths share one label, so clients cannot grow the series without bound', async () => {
    for (let i = 0; i < 20; i++) await call(server.url, 'GET', `/api/v1/made-up-${'abcdefghijklmnopqrst'[i]}/deeper`);
    const routes = new Set([...(await samples(server.url)).keys()].map((key) => /route="([^"]+)"/.exec(key)?.[1]).filter(Boolean));
    expect([...routes].filter((route) => route?.includes('made-up'))).toEqual([]);
    expect(routes.has('/api/other')).toBe(true);
  });

  test('METRICS_PATH moves them; an empty METRICS_PATH turns them off', async () => {
    const moved = await startTestServer(join(FIXTURES, 'valid'), { METRICS_PATH: '/ops/metrics-7f3a' });
    const off = await startTestServer(join(FIXTURES, 'valid'), { METRICS_PATH: '' });
    try {
      expect((await samples(moved.url, '/ops/metrics-7f3a')).size).toBeGreaterThan(0);
      expect((await rawRequest(moved.url, 'GET', '/_internal/metrics')).status).toBe(404);
      expect((await rawRequest(off.url, 'GET', '/_internal/metrics')).status).toBe(404);
    } finally {
      await moved.stop();
      await off.stop();
    }
  });
});

describe('behind a trusted proxy (TRUST_PROXY_HOPS=1)', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer(join(FIXTURES, 'valid'), { TRUST_PROXY_HOPS: '1' });
  });
  afterAll(async () => {
    await proxied.stop();
  });
  afterEach(() => {
    expect(proxied.errors.splice(0)).toEqual([]);
  });

  test('HSTS is sent when the proxy says the client came over https, and only then', async () => {
    const secure = await rawRequest(proxied.url, 'GET', '/api/v1/deals?limit=1', { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.5' });
    expect(secure.headers['strict-transport-security']).toMatch(/^max-age=(\d+)/);
    expect(Number(/max-age=(\d+)/.exec(String(secure.headers['strict-transport-security']))?.[1])).toBeGreaterThanOrEqual(31_536_000);
    const plain = await rawRequest(proxied.url, 'GET', '/api/v1/deals?limit=1', { 'x-forwarded-proto': 'http' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // An appending proxy: only the entry the trusted proxy added counts, not what the client put first.
    const claimed = await rawRequest(proxied.url, 'GET', '/api/v1/deals?limit=1', { 'x-forwarded-proto': 'https, http' });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    const appended = await rawRequest(proxied.url, 'GET', '/api/v1/deals?limit=1', { 'x-forwarded-proto': 'http, https' });
    expect(appended.headers['strict-transport-security']).toMatch(/^max-age=/);
  });

  test('the client address is the one the proxy saw: each forwarded client has its own submission budget', async () => {
    const from = (client: string, n: number) => callFrom('127.0.15.1', proxied.url, 'POST', '/api/v1/submit-deal', { body: submission(n), origin: null, headers: { 'X-Forwarded-For': client } });
    for (let n = 1; n <= 5; n++) expect((await from('203.0.113.20', n)).status).toBe(201);
    expectError(await from('203.0.113.20', 6), 429, 'rate_limited');
    // A client-supplied entry before the proxy's own is not believed: the last entry counts.
    expectError(await from('198.51.100.1, 203.0.113.20', 7), 429, 'rate_limited');
    expect((await from('203.0.113.21', 8)).status).toBe(201);
  });
});

// --- internal ---

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
}
