/**
 * The serverless packaging (issue 6; docs/deploying.md "Serverless"): the Netlify Functions v2
 * handler answers Web Requests from the bundled prebuilt indexes, with the platform's client
 * address; writes answer 503 where no git work tree exists.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { expectDealList, expectErrorBody } from '../helpers/api-schemas.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { FIXTURES } from '../helpers/server.ts';

let work: string;
let handler: (request: Request, context: { ip?: string; requestId?: string }) => Promise<Response>;
let config: { path: string[] };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-netlify-'));
  // A deploy bundle: content files (no .git) and the generated indexes next to the function.
  await cp(join(FIXTURES, 'valid'), join(work, 'content'), { recursive: true });
  await buildGenerated(join(work, 'content'), join(work, 'generated'));
  process.env.CONTENT_DIR = join(work, 'content');
  process.env.GENERATED_DIR = join(work, 'generated');
  process.env.DATA_DIR = join(work, 'data');
  // The function's entry as Netlify bundles it.
  ({ default: handler, config } = await import('../../netlify/functions/api.ts'));
});
afterAll(async () => {
  for (const name of ['CONTENT_DIR', 'GENERATED_DIR', 'DATA_DIR', 'SESSION_SECRET']) delete process.env[name];
  await rm(work, { recursive: true, force: true });
});

test('without SESSION_SECRET the function does not start, naming it; once set, the next request starts it', async () => {
  await expect(handler(new Request('https://deals.example/api/v1/deals?limit=1'), {})).rejects.toThrow(/SESSION_SECRET: required on a serverless function/);
  process.env.SESSION_SECRET = 'a-session-secret-of-at-least-32-bytes-for-the-functions';
  expect((await handler(new Request('https://deals.example/api/v1/deals?limit=1'), {})).status).toBe(200);
});

test('config.path claims the API and the documents', () => {
  expect(config.path).toContain('/api/*');
  expect(config.path).toContain('/llms.txt');
});

test('a document answers from the function', async () => {
  const response = await handler(new Request('https://deals.example/llms.txt'), { ip: '203.0.113.9' });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
});

test('reads and search answer from the bundled indexes, with the SPEC headers', async () => {
  const response = await handler(new Request('https://deals.example/api/v1/deals?search=cloud&limit=2'), { ip: '203.0.113.9', requestId: 'req-1' });
  expect(response.status).toBe(200);
  expect(response.headers.get('api-version')).toBe('v1');
  expect(response.headers.get('ratelimit-policy')).toMatch(/^"read";q=\d+;w=\d+$/);
  expectDealList(await response.json());
});

test('the security headers and the request id, as on the Node server', async () => {
  const response = await handler(new Request('https://deals.example/api/v1/deals?slug=missing'), { ip: '203.0.113.9', requestId: 'req-2' });
  expect(response.status).toBe(404);
  expect(response.headers.get('x-request-id')).toBe('req-2');
  expect(response.headers.get('content-security-policy')).toContain("script-src 'self';");
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  const plain = await handler(new Request('http://deals.example/api/v1/deals?limit=1'), {});
  expect(plain.headers.get('strict-transport-security')).toBeNull();
  expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

test('the MCP endpoint answers a tools/list', async () => {
  const response = await handler(
    new Request('https://deals.example/api/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    }),
    { ip: '203.0.113.9' },
  );
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('search_deals');
});

test('a submission answers 503 service_unavailable: no Redis to share the hourly limit (nor a database to keep it)', async () => {
  const response = await handler(
    new Request('https://deals.example/api/v1/submit-deal', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        company_name: 'Edge Co',
        website_url: 'https://edge.example',
        deal_value: '10% off',
        redemption_link: 'https://edge.example/r',
        benefit_description: 'Ten percent off for startups, any size, first year.',
        category: 'saas',
      }),
    }),
    { ip: '203.0.113.10' },
  );
  expect(response.status).toBe(503);
  const body = expectErrorBody(await response.json());
  expect(body.code).toBe('service_unavailable');
  expect(body.error).toContain('shared by every serverless instance');
  expect(body.hint).toContain('REDIS_URL');
});

test('sign-in answers 503 too: its guess limit would be per instance', async () => {
  const response = await handler(
    new Request('https://deals.example/api/v1/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://deals.example' },
      body: JSON.stringify({ email: 'a@example.com', password: 'whatever-it-is' }),
    }),
    { ip: '203.0.113.11' },
  );
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('3600');
});

test('sign-up answers 503 where the function can keep no account (no DATABASE_URL), naming what to set', async () => {
  const response = await handler(
    new Request('https://deals.example/api/v1/auth/signup', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://deals.example' },
      body: JSON.stringify({ email: 'new-member@example.com', password: 'a-long-enough-password' }),
    }),
    { ip: '203.0.113.12' },
  );
  expect(response.status).toBe(503);
  const body = expectErrorBody(await response.json());
  expect(body.code).toBe('service_unavailable');
  expect(body.error).toContain('only reads');
  expect(body.hint).toContain('DATABASE_URL');
});

test('the sign-up form gets its page back saying sign-up is unavailable, not a bare error', async () => {
  const response = await handler(
    new Request('https://deals.example/api/v1/auth/signup', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://deals.example' },
      body: new URLSearchParams({ email: 'new-member@example.com', password: 'a-long-enough-password' }).toString(),
    }),
    { ip: '203.0.113.13' },
  );
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/signup?error=unavailable');
});
