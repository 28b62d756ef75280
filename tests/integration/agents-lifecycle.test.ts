/**
 * Route retirement signals (SPEC "Versioning" 3-5, STANDARDS 5) with a lifecycle row given
 * through `API_LIFECYCLE`: every response of the deprecated route (any status, any method,
 * through the alias too) carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and the
 * `deprecation` / `successor-version` links; other routes carry none; the OpenAPI operation is
 * marked. A table with less than 180 days of notice stops the server from starting.
 * Also SPEC "Versioning" 4: every response carries `API-Version: v1`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { rawRequest } from '../helpers/http.ts';
import { fetchText, linksWithRel, parseJson, parseLinks, startAgentsServer, type AgentsServer } from '../helpers/agents-support.ts';

const ROW = { path: '/startups', deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z', successor: '/api/v2/startups' };
const DEPRECATION = '@1798761600';
const SUNSET = 'Thu, 01 Jul 2027 00:00:00 GMT';

let server: AgentsServer;
let policyPath: string;

beforeAll(async () => {
  server = await startAgentsServer({ API_LIFECYCLE: JSON.stringify([ROW]) });
  const doc = parseJson((await fetchText(`${server.url}/openapi.json`)).text) as { 'x-api-versioning': { policyUrl: string } };
  const policy = new URL(doc['x-api-versioning'].policyUrl);
  policyPath = `${policy.pathname}${policy.hash}`;
});
afterAll(async () => {
  await server?.stop();
});
afterEach(() => {
  expect(server.errors.splice(0)).toEqual([]);
});

function expectRetirementSignals(headers: Headers, label: string): void {
  expect(headers.get('deprecation'), label).toBe(DEPRECATION);
  expect(headers.get('sunset'), label).toBe(SUNSET);
  const deprecationLinks = linksWithRel(headers.get('link'), 'deprecation');
  expect(deprecationLinks, label).toHaveLength(1);
  // The written policy, the same one the OpenAPI document names.
  const policy = new URL(deprecationLinks[0] as string, 'http://site.test');
  expect(`${policy.pathname}${policy.hash}`, label).toBe(policyPath);
  expect(linksWithRel(headers.get('link'), 'successor-version'), label).toContain('/api/v2/startups');
  expect(headers.get('api-version'), label).toBe('v1');
}

function expectNoRetirementSignals(headers: Headers, label: string): void {
  expect(headers.get('deprecation'), label).toBeNull();
  expect(headers.get('sunset'), label).toBeNull();
  expect(linksWithRel(headers.get('link'), 'deprecation'), label).toEqual([]);
  expect(
    linksWithRel(headers.get('link'), 'successor-version').filter((h) => h.includes('/v2/')),
    label,
  ).toEqual([]);
  expect(headers.get('api-version'), label).toBe('v1');
}

describe('a deprecated route carries the signals on every response', () => {
  const cases: { name: string; path: string; init?: RequestInit; status: number }[] = [
    { name: 'GET 200', path: '/api/v1/startups', status: 200 },
    { name: 'GET 200 with filters', path: '/api/v1/startups?forSale=true&minRevenue=100000', status: 200 },
    { name: 'GET 400', path: '/api/v1/startups?minRevenue=abc', status: 400 },
    { name: 'POST 405', path: '/api/v1/startups', init: { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } }, status: 405 },
    { name: 'DELETE 405', path: '/api/v1/startups', init: { method: 'DELETE' }, status: 405 },
    { name: 'HEAD 200', path: '/api/v1/startups', init: { method: 'HEAD' }, status: 200 },
    { name: 'OPTIONS 204', path: '/api/v1/startups', init: { method: 'OPTIONS' }, status: 204 },
    { name: 'alias GET 200', path: '/api/startups', status: 200 },
    { name: 'alias GET 400', path: '/api/startups?forSale=maybe', status: 400 },
    { name: 'alias POST 405', path: '/api/startups', init: { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } }, status: 405 },
    { name: 'trailing slash', path: '/api/v1/startups/', status: 200 },
  ];

  test.each(cases)('$name $path', async ({ path, init, status }) => {
    const result = await fetchText(`${server.url}${path}`, init);
    expect(result.status, result.text).toBe(status);
    expectRetirementSignals(result.headers, `${init?.method ?? 'GET'} ${path}`);
  });

  test('a repeated GET (answered from the micro-cache) and a 304 keep them', async () => {
    const first = await fetchText(`${server.url}/api/v1/startups?country=US`);
    const second = await fetchText(`${server.url}/api/v1/startups?country=US`);
    expectRetirementSignals(second.headers, 'second GET');
    const etag = first.headers.get('etag');
    expect(etag).not.toBeNull();
    const notModified = await fetchText(`${server.url}/api/v1/startups?country=US`, { headers: { 'If-None-Match': etag as string } });
    expect(notModified.status).toBe(304);
    expectRetirementSignals(notModified.headers, '304');
  });

  test('the alias also keeps its own successor link to the versioned path', async () => {
    const { headers } = await fetchText(`${server.url}/api/startups?country=US`);
    expect(linksWithRel(headers.get('link'), 'successor-version')).toEqual(expect.arrayContaining(['/api/v1/startups?country=US', '/api/v2/startups']));
  });

  test('on the wire: one Deprecation and one Sunset field, Link values well-formed', async () => {
    const raw = await rawRequest(server.url, 'GET', '/api/v1/startups');
    expect(raw.status).toBe(200);
    expect(raw.headers.deprecation).toBe(DEPRECATION);
    expect(raw.headers.sunset).toBe(SUNSET);
    const link = Array.isArray(raw.headers.link) ? raw.headers.link.join(', ') : (raw.headers.link ?? '');
    const links = parseLinks(link);
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const l of links) expect(l.rel.length, link).toBeGreaterThan(0);
    // Sunset is not earlier than Deprecation (STANDARDS 5), and 180 days after it.
    const deprecated = Number(DEPRECATION.slice(1)) * 1000;
    expect(Date.parse(raw.headers.sunset as string) - deprecated).toBeGreaterThanOrEqual(180 * 24 * 3600 * 1000);
  });
});

describe('other routes carry none of them', () => {
  test.each(['/api/v1/deals', '/api/v1/deals?slug=stripe-atlas', '/api/v1/deals?limit=0', '/api/deals', '/api/v1/submit-deal', '/api/v1/health', '/api/v1/nope', '/openapi.json', '/llms.txt'])(
    '%s',
    async (path) => {
      const { headers } = await fetchText(`${server.url}${path}`);
      expectNoRetirementSignals(headers, path);
    },
  );

  test('the /api/deals alias has only its successor link to /api/v1/deals', async () => {
    const { headers } = await fetchText(`${server.url}/api/deals`);
    expect(linksWithRel(headers.get('link'), 'successor-version')).toEqual(['/api/v1/deals']);
  });
});

describe('/openapi.json', () => {
  test('marks listStartups deprecated with the dates and successor; nothing else is deprecated', async () => {
    const doc = parseJson((await fetchText(`${server.url}/openapi.json`)).text) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const deprecated: string[] = [];
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (op.deprecated === true) deprecated.push(op.operationId as string);
      }
    }
    expect(deprecated).toEqual(['listStartups']);
    const op = doc.paths['/api/v1/startups']?.get ?? {};
    const text = JSON.stringify(op);
    for (const value of [ROW.deprecatedAt, ROW.sunsetAt, ROW.successor]) expect(text).toContain(value);
  });
});

describe('start-up refuses a table that breaks the 180-day rule', () => {
  const row = (sunsetAt: string, extra: Record<string, unknown> = {}) => JSON.stringify([{ ...ROW, sunsetAt, ...extra }]);

  test('179 days of notice: startServer rejects', async () => {
    await expect(startAgentsServer({ API_LIFECYCLE: row('2027-06-29T00:00:00Z') })).rejects.toThrow(/180 days/);
  });

  test('180 days minus one second: rejects', async () => {
    await expect(startAgentsServer({ API_LIFECYCLE: row('2027-06-29T23:59:59Z') })).rejects.toThrow(/180 days/);
  });

  test('sunset before deprecation: rejects', async () => {
    await expect(startAgentsServer({ API_LIFECYCLE: row('2026-06-01T00:00:00Z') })).rejects.toThrow();
  });

  test('a row without a successor or with a bad date: rejects', async () => {
    await expect(startAgentsServer({ API_LIFECYCLE: row('2027-07-01T00:00:00Z', { successor: '' }) })).rejects.toThrow();
    await expect(startAgentsServer({ API_LIFECYCLE: row('next summer') })).rejects.toThrow();
  });

  test('exactly 180 days: starts, and announces it', async () => {
    const ok = await startAgentsServer({ API_LIFECYCLE: row('2027-06-30T00:00:00Z') });
    try {
      const { headers } = await fetchText(`${ok.url}/api/v1/startups`);
      expect(headers.get('deprecation')).toBe(DEPRECATION);
      expect(headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    } finally {
      await ok.stop();
    }
  });
});

describe('API-Version: v1 on every response (SPEC "Versioning" 4)', () => {
  const requests: { path: string; init?: RequestInit }[] = [
    { path: '/api/v1/deals' },
    { path: '/api/v1/deals?slug=no-such-deal' },
    { path: '/api/v1/deals?limit=0' },
    { path: '/api/deals?limit=1' },
    { path: '/api/v1/deals', init: { method: 'PATCH' } },
    { path: '/api/v1/deals', init: { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } } },
    { path: '/api/v1/deals', init: { method: 'OPTIONS' } },
    { path: '/api/v1/startups' },
    { path: '/api/v1/submit-deal' },
    { path: '/api/v1/submit-deal', init: { method: 'POST', body: 'not json', headers: { 'Content-Type': 'application/json' } } },
    { path: '/api/v1/health' },
    { path: '/api/v1/nope' },
    { path: '/api/nope' },
    { path: '/api/v2/deals' },
    { path: '/api' },
    { path: '/api/mcp' },
    { path: '/api/mcp', init: { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json', Accept: 'application/json' } } },
    { path: '/api/v1/auth/session' },
    { path: '/openapi.json' },
    { path: '/openapi.json', init: { method: 'HEAD' } },
    { path: '/openapi.json', init: { method: 'POST' } },
    { path: '/llms.txt' },
    { path: '/llms-full.txt' },
    { path: '/sitemap.xml' },
    { path: '/robots.txt' },
    { path: '/.well-known/api-catalog' },
    { path: '/.well-known/api-catalog', init: { method: 'OPTIONS' } },
    { path: '/.well-known/agent-card.json' },
    { path: '/.well-known/oauth-protected-resource' },
    { path: '/.well-known/oauth-authorization-server' },
    { path: '/.well-known/openid-configuration' },
    { path: '/.well-known/jwks.json' },
    { path: '/.well-known/nothing-here' },
    { path: '/' },
    { path: '/no-such-page' },
    { path: '/deals/no-such-deal/' },
    { path: '/no-such-page', init: { method: 'HEAD' } },
  ];

  test.each(requests)('$init.method $path', async ({ path, init }) => {
    const { headers } = await fetchText(`${server.url}${path}`, init);
    expect(headers.get('api-version')).toBe('v1');
  });

  test('a 304 keeps it', async () => {
    const first = await fetchText(`${server.url}/llms.txt`);
    const again = await fetchText(`${server.url}/llms.txt`, { headers: { 'If-None-Match': first.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('api-version')).toBe('v1');
  });

  test('the loopback metrics endpoint is a response too', async () => {
    const { status, headers } = await fetchText(`${server.url}/_internal/metrics`);
    expect(status).toBe(200);
    expect(headers.get('api-version')).toBe('v1');
  });
});
