/**
 * Property-based checks of the public read endpoints on the real server: whatever the query
 * string, the answer is never a 5xx, every error is the SPEC error object, every 200 has the
 * documented shape, and the server logs no error (STYLE 12).
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DealSingleSchema, expectDealList, expectErrorBody, expectStartupList } from '../helpers/api-schemas.ts';
import { FIXTURES, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(join(FIXTURES, 'valid'));
});
afterAll(async () => {
  await server.stop();
});

const DEAL_PARAMS = ['search', 'category', 'status', 'slug', 'id', 'featured', 'recommended', 'limit', 'scope'];
const STARTUP_PARAMS = ['category', 'minRevenue', 'maxRevenue', 'country', 'search', 'source', 'featured', 'forSale'];

/** Values the parameters really take, so many runs get past validation into the query code. */
const MEANINGFUL = [
  'true',
  'false',
  'all',
  'active',
  'expired',
  'coming-soon',
  'limited',
  'deals',
  'programs',
  'cloud-credits',
  'saas-discounts',
  'accelerators',
  'saas',
  'ecommerce',
  'acquire',
  'direct',
  'US',
  'gb',
  'aws-activate',
  'd-aws00001',
  'notion-plus',
  'd-yc000004',
  'aws',
  'cloud credits',
  'cr',
  'the',
  'Zürich',
  '0',
  '1',
  '5',
  '5000',
  '5001',
  '-1',
  '184000',
  '1.5',
  '1e3',
  '0x10',
  ' 7',
  '',
];
const LUNR_SYNTAX = ['aws:', 'title:aws', 'foo^', 'cloud^10', '~2', 'aws~1', '+aws', '-aws', 'aw*', '*', '*aws*', ':', '^', '~', '"', '\\', '(aws)', 'a:b:c^1~2*'];
const PERCENT = ['%', '%2', '%ZZ', '%00', '%FF', '%C3', '%E0%A4%A', '%C3%BC', '%25', '%2B', '%26', '%3D', '%F0%9F%98%80', '%ED%A0%80'];

/** Characters sent as they are: `&`, `=`, `+` and `#` change how the query string splits. */
const rawText = fc.string({ unit: fc.constantFrom(...Array.from('abc AZ09-_.~!$&\'()*+,;=:@/?#%^[]{}|<>"`é東😀')), maxLength: 30 });

const value = fc.oneof(
  { arbitrary: fc.constantFrom(...MEANINGFUL).map(encodeURIComponent), weight: 5 },
  { arbitrary: fc.constantFrom(...LUNR_SYNTAX).map(encodeURIComponent), weight: 3 },
  { arbitrary: fc.constantFrom(...PERCENT), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => encodeURIComponent(s.toWellFormed())), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => encodeURIComponent(s)), weight: 2 },
  { arbitrary: rawText, weight: 2 },
  { arbitrary: fc.integer().map(String), weight: 2 },
  { arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String), weight: 1 },
  // Very long values: words, syntax and separators, several kilobytes.
  {
    arbitrary: fc.array(fc.constantFrom('aws', 'cloud', 'cr', 'the', 'x', '%20', '+', '%2A', '%3A', '%5E', '%7E', 'z%C3%BC'), { minLength: 500, maxLength: 2500 }).map((parts) => parts.join('+')),
    weight: 1,
  },
);

function keyOf(names: readonly string[]) {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...names), weight: 8 },
    { arbitrary: fc.constantFrom(...names).map((n) => n.toUpperCase()), weight: 1 },
    { arbitrary: fc.constantFrom('', '%', 'lim%69t', 'search[]', 'foo', 'utm_source', '__proto__', 'constructor'), weight: 1 },
    { arbitrary: rawText, weight: 1 },
  );
}

/** A query string of 0 to 6 `key=value` pairs (some without `=`), at most 12,000 characters. */
function queryString(names: readonly string[]) {
  const pair = fc.tuple(keyOf(names), value, fc.boolean()).map(([k, v, bare]) => (bare && v === '' ? k : `${k}=${v}`));
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&').slice(0, 12_000));
}

/** Fetch and check the invariants every answer of the endpoint must keep; returns the status. */
async function checkAnswer(path: string, query: string, okShape: (body: unknown) => void): Promise<void> {
  const response = await fetch(`${server.url}${path}?${query}`);
  const text = await response.text();
  const where = `${path}?${query.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect([200, 400, 404], where).toContain(response.status);
  expect(response.headers.get('api-version'), where).toBe('v1');
  const body = JSON.parse(text) as unknown;
  if (response.status === 200) okShape(body);
  else expectErrorBody(body);
}

test('GET /api/v1/deals: any query string answers 200 in shape or a SPEC error, never 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(queryString(DEAL_PARAMS), async (query) => {
      await checkAnswer('/api/v1/deals', query, (body) => {
        if (typeof body === 'object' && body !== null && 'deal' in body) DealSingleSchema.parse(body);
        else expectDealList(body);
      });
    }),
    { numRuns: 300 },
  );
  expect(server.errors).toEqual([]);
});

test('GET /api/v1/startups: any query string answers 200 in shape or a SPEC error, never 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(queryString(STARTUP_PARAMS), async (query) => {
      await checkAnswer('/api/v1/startups', query, (body) => {
        expectStartupList(body);
      });
    }),
    { numRuns: 300 },
  );
  expect(server.errors).toEqual([]);
});

test('GET /api/v1/deals?search=…: any text is a 200 list', async () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.array(fc.constantFrom(...LUNR_SYNTAX, ...MEANINGFUL), { maxLength: 30 }).map((words) => words.join(' ')),
  );
  await fc.assert(
    fc.asyncProperty(text, fc.constantFrom('', '&status=all', '&scope=all', '&limit=1', '&featured=true'), async (search, rest) => {
      const query = `search=${encodeURIComponent(search.toWellFormed())}${rest}`;
      const response = await fetch(`${server.url}/api/v1/deals?${query}`);
      const body = (await response.json()) as unknown;
      expect(response.status, `${query} → ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
      expectDealList(body);
    }),
    { numRuns: 200 },
  );
  expect(server.errors).toEqual([]);
});
