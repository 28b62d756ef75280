/**
 * What people could not find, counted on the real server (issue 13 item 4, docs/search-gaps.md):
 * searches through the API (cached or not, HEAD included), and MCP's `search_deals`, counted by
 * outcome; instant search's typing requests left out; the admin report (admins only, bounded
 * parameters) and the metrics; and one shared list for instances that share a real Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectMcp } from '../helpers/agents-support.ts';
import { rawRequest } from '../helpers/http.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';
import { ADMIN, call, expectError, login, MEMBER, startWriteServer, useWriteServer, type WriteServer } from '../helpers/writes-harness.ts';

interface Report {
  searches: number;
  zero: number;
  low: number;
  queries: { query: string; zero: number; low: number; lastSeen: string }[];
}

const report = async (server: WriteServer, cookie: string, query = ''): Promise<Report> => {
  const answer = await call(server.url, 'GET', `/api/v1/admin/search-gaps${query}`, { cookie });
  expect(answer.status).toBe(200);
  return answer.body as Report;
};
const row = (gaps: Report, query: string) => gaps.queries.find((r) => r.query === query);
const search = (server: WriteServer, text: string, init: RequestInit = {}) => fetch(`${server.url}/api/v1/deals?search=${encodeURIComponent(text)}`, init);
/** Counting happens after the answer, in the background: give it a moment. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('one server, counts in memory', () => {
  let env: WriteServer;
  let admin = '';
  useWriteServer([ADMIN, MEMBER], async (started) => {
    env = started;
    admin = await login(env.url, ADMIN);
  });

  test('a search that finds nothing counts as zero under its normalised text, each time, cached or not, HEAD too', async () => {
    const before = await report(env, admin);
    for (const text of ['Zqwedding  Photographer!', 'zqwedding photographer', 'ZQWEDDING PHOTOGRAPHER']) {
      const answer = await search(env, text);
      expect(((await answer.json()) as { stats: { total: number } }).stats.total).toBe(0);
    }
    expect((await search(env, 'zqwedding photographer', { method: 'HEAD' })).status).toBe(200);
    await settle();
    const after = await report(env, admin);
    expect(row(after, 'zqwedding photographer')).toEqual({ query: 'zqwedding photographer', zero: 4, low: 0, lastSeen: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(after.searches - before.searches).toBe(4);
    expect(after.zero - before.zero).toBe(4);
  });

  test('a search that finds one or two deals counts as low; one that finds more counts only as a search', async () => {
    const found = (await (await search(env, 'zurich')).json()) as { stats: { total: number } };
    expect(found.stats.total).toBeGreaterThanOrEqual(1);
    expect(found.stats.total).toBeLessThan(3);
    const many = (await (await search(env, 'credits')).json()) as { stats: { total: number } };
    expect(many.stats.total).toBeGreaterThanOrEqual(3);
    await settle();
    const gaps = await report(env, admin);
    expect(row(gaps, 'zurich')).toMatchObject({ zero: 0, low: 1 });
    expect(row(gaps, 'credits')).toBeUndefined();
  });

  test('requests marked `Search-Intent: incremental` (instant search while typing) are not counted', async () => {
    const before = await report(env, admin);
    for (const prefix of ['zqt', 'zqty', 'zqtyp']) expect((await search(env, prefix, { headers: { 'Search-Intent': 'incremental' } })).status).toBe(200);
    await settle();
    const after = await report(env, admin);
    expect(after.searches).toBe(before.searches);
    expect(after.queries.filter((r) => r.query.startsWith('zqt'))).toEqual([]);
  });

  test('a listing without search text, an empty search and an invalid request count nothing', async () => {
    const before = await report(env, admin);
    await fetch(`${env.url}/api/v1/deals?limit=2`);
    await fetch(`${env.url}/api/v1/deals?search=%20%20`);
    await fetch(`${env.url}/api/v1/deals?search=zqinvalid&limit=zero`);
    await settle();
    expect((await report(env, admin)).searches).toBe(before.searches);
  });

  test("MCP's search_deals is counted like the API", async () => {
    const { client, transport } = await connectMcp(env.url);
    try {
      const result = await client.callTool({ name: 'search_deals', arguments: { query: 'zqagent quantum ledger' } });
      expect((result.structuredContent as { total: number }).total).toBe(0);
    } finally {
      await transport.close();
    }
    await settle();
    expect(row(await report(env, admin), 'zqagent quantum ledger')).toMatchObject({ zero: 1 });
  });

  test('the report is for admins only, from the same origin', async () => {
    expectError(await call(env.url, 'GET', '/api/v1/admin/search-gaps'), 401, 'unauthorized');
    expectError(await call(env.url, 'GET', '/api/v1/admin/search-gaps', { cookie: await login(env.url, MEMBER) }), 403, 'forbidden');
    const preflight = await fetch(`${env.url}/api/v1/admin/search-gaps`, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('days and limit: bounded, and anything else is a clear 400', async () => {
    const capped = (await call(env.url, 'GET', '/api/v1/admin/search-gaps?days=999&limit=100000', { cookie: admin })).body as { days: number; from: string; to: string };
    expect(capped.days).toBe(30);
    expect((Date.parse(capped.to) - Date.parse(capped.from)) / 86_400_000).toBe(29);
    expect((await report(env, admin, '?limit=1')).queries.length).toBeLessThanOrEqual(1);
    for (const bad of ['?days=0', '?days=two', '?limit=-1', '?limit=1.5']) expectError(await call(env.url, 'GET', `/api/v1/admin/search-gaps${bad}`, { cookie: admin }), 400, 'validation_error');
  });

  test("metrics: searches by outcome, and the week's top queries by text", async () => {
    const metrics = (await rawRequest(env.url, 'GET', '/_internal/metrics')).body.toString('utf8');
    expect(metrics).toMatch(/^search_queries_total\{outcome="zero"\} \d+$/m);
    expect(metrics).toMatch(/^search_queries_total\{outcome="low"\} \d+$/m);
    expect(metrics).toContain('search_gap_queries{query="zqwedding photographer",outcome="zero"} 4');
  });
});

describe('two servers sharing a real Redis', () => {
  let redis: RedisServer;
  let first: WriteServer;
  let second: WriteServer;
  beforeAll(async () => {
    redis = await startRedisServer();
    first = await startWriteServer([ADMIN], { REDIS_URL: redis.url });
    second = await startWriteServer([ADMIN], { REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await redis?.stop();
  });

  test('a search on one instance is in the report of the other; a Redis outage loses counts, never the search', async () => {
    await search(first, 'zqshared miss');
    await search(second, 'zqshared miss');
    // Counted in Redis in the background: poll the other instance's report.
    const reader = await login(second.url, ADMIN);
    await expect.poll(async () => row(await report(second, reader), 'zqshared miss')?.zero, { timeout: 3000 }).toBe(2);
    const cookie = await login(first.url, ADMIN);
    await redis.kill();
    const answer = await search(first, 'zqafter outage');
    expect(answer.status).toBe(200);
    expectError(await call(first.url, 'GET', '/api/v1/admin/search-gaps', { cookie }), 503, 'service_unavailable');
  });
});
