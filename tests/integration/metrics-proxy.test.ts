/**
 * Metrics are for this machine only, also behind a proxy on this machine (issue 11, item 9):
 * with TRUST_PROXY_HOPS set, every request arrives from the proxy's loopback socket, so the
 * client the proxy names is judged instead. A refused request gets what any unknown path gets.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { rawRequest } from '../helpers/http.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';

const proxied = useTestServer(join(FIXTURES, 'valid'), { TRUST_PROXY_HOPS: '1' });

const metrics = (forwardedFor?: string) => rawRequest(proxied.url, 'GET', '/_internal/metrics', forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor });

describe('metrics behind a trusted proxy (TRUST_PROXY_HOPS=1)', () => {
  test('a remote client forwarded by the proxy on 127.0.0.1 gets the answer of an unknown path, without metrics', async () => {
    const unknown = await rawRequest(proxied.url, 'GET', '/no-such-page-anywhere', { 'x-forwarded-for': '203.0.113.9' });
    const refused = await metrics('203.0.113.9');
    expect(refused.status).toBe(404);
    expect(refused.status).toBe(unknown.status);
    expect(refused.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(refused.body.toString('utf8')).not.toContain('http_requests_total');
  });

  test("an entry the client put before the proxy's own does not make it local", async () => {
    const refused = await metrics('127.0.0.1, 203.0.113.9');
    expect(refused.status).toBe(404);
    expect(refused.body.toString('utf8')).not.toContain('http_requests_total');
  });

  test('a client on this machine, forwarded or direct, gets the metrics', async () => {
    for (const forwardedFor of ['127.0.0.1', '::1', undefined]) {
      const served = await metrics(forwardedFor);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(served.body.toString('utf8')).toContain('http_requests_total');
    }
  });
});
