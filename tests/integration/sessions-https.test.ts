/**
 * The session cookie over HTTPS and the same-origin rule (SECURITY.md "admin powers"), on the
 * real server behind a trusted proxy (TRUST_PROXY_HOPS=1, the proxy saying `X-Forwarded-Proto`):
 * Secure and the `__Host-` name are decided by the scheme the proxy vouches for, never by the
 * Host header; a plain-named cookie is ignored over HTTPS; `Origin` must match the whole origin.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN, call, callFrom, expectError, startWriteServer, takeErrors, type JsonResult, type WriteServer } from '../helpers/writes-harness.ts';

let env: WriteServer;
let origin: { http: string; https: string };

beforeAll(async () => {
  env = await startWriteServer([ADMIN], { TRUST_PROXY_HOPS: '1' });
  const host = new URL(env.url).host;
  origin = { http: `http://${host}`, https: `https://${host}` };
});
afterAll(async () => {
  expect(takeErrors(env.server)).toEqual([]);
  await env.stop();
});

const HTTPS = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.7' };

async function loginOver(headers: Record<string, string>, from: string): Promise<JsonResult> {
  return call(env.url, 'POST', '/api/v1/auth/login', { origin: from, headers, body: { email: ADMIN.email, password: ADMIN.password } });
}

/** The one session Set-Cookie line of a response. */
function sessionSetCookie(result: JsonResult): string {
  const lines = result.headers.getSetCookie().filter((c) => /^(__Host-)?deals_session=/.test(c));
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

describe('over HTTPS (through the trusted proxy)', () => {
  test('the session cookie is Secure and named __Host-deals_session (Path=/, no Domain)', async () => {
    const result = await loginOver(HTTPS, origin.https);
    expect(result.status, result.text).toBe(200);
    const attributes = sessionSetCookie(result)
      .split(';')
      .map((a) => a.trim());
    expect(attributes[0]).toMatch(/^__Host-deals_session=[\w-]+\.[\w-]+$/);
    expect(attributes).toContain('Secure');
    expect(attributes).toContain('Path=/');
    expect(attributes.some((a) => a.toLowerCase().startsWith('domain='))).toBe(false);
  });

  test('the __Host- cookie authorises writes; the same value under the plain name is ignored', async () => {
    const cookie = sessionSetCookie(await loginOver(HTTPS, origin.https)).split(';')[0] as string;
    const put = (name: string) => call(env.url, 'PUT', '/api/v1/deals', { origin: origin.https, headers: HTTPS, cookie: name, body: { slug: 'aws-activate', value: 'Set over HTTPS' } });
    expect((await put(cookie)).status).toBe(200);
    expectError(await put(cookie.replace(/^__Host-/, '')), 401, 'unauthorized');
  });

  test('an http:// Origin on an https request is cross-site: 403, even with the right host and port', async () => {
    const cookie = sessionSetCookie(await loginOver(HTTPS, origin.https)).split(';')[0] as string;
    const result = await call(env.url, 'PUT', '/api/v1/deals', { origin: origin.http, headers: HTTPS, cookie, body: { slug: 'aws-activate', value: 'From plain http' } });
    expectError(result, 403, 'forbidden');
    expectError(await loginOver(HTTPS, origin.http), 403, 'forbidden');
  });
});

describe('over plain HTTP', () => {
  test("no Secure flag and the plain name, whatever the Host header says (the Host is the client's choice)", async () => {
    // node:http sends the Host header as given (fetch would replace it).
    const result = await callFrom('127.0.0.1', env.url, 'POST', '/api/v1/auth/login', {
      origin: 'http://deals.example',
      headers: { Host: 'deals.example' },
      body: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(result.status, result.text).toBe(200);
    const attributes = sessionSetCookie(result)
      .split(';')
      .map((a) => a.trim());
    expect(attributes[0]).toMatch(/^deals_session=/);
    expect(attributes.map((a) => a.toLowerCase())).not.toContain('secure');
  });

  test('a forged X-Forwarded-Proto from the client is not believed past the trusted hop', async () => {
    // The client sends "https" first; the one trusted proxy appends "http" (what it really saw).
    const result = await loginOver({ 'X-Forwarded-Proto': 'https, http' }, origin.http);
    expect(result.status, result.text).toBe(200);
    expect(sessionSetCookie(result)).not.toMatch(/Secure/);
  });

  test('another port on the same host is another origin: 403', async () => {
    const other = `http://${new URL(env.url).hostname}:1`;
    expectError(await loginOver({}, other), 403, 'forbidden');
  });
});
