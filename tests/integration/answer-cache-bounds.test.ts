/**
 * Answer caches and long query strings, on the real server (issue 11, item 8): an answer whose
 * query string is over 512 bytes is computed every time and kept in neither the adapter's
 * response cache nor the catalog's answer cache, so clients cannot fill memory with long keys.
 * Observable through `Server-Timing`: `cache;desc="hit"` for a kept answer, `app;dur=…` for one
 * computed now.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { rawRequest } from '../helpers/http.ts';
import { FIXTURES, useTestServer } from '../helpers/server.ts';

const server = useTestServer(join(FIXTURES, 'valid'));

/** `Server-Timing` of the second of two identical requests. */
async function secondTiming(path: string): Promise<string> {
  const first = await rawRequest(server.url, 'GET', path);
  expect(first.status).toBe(200);
  const second = await rawRequest(server.url, 'GET', path);
  expect(second.status).toBe(200);
  return String(second.headers['server-timing']);
}

/** A deals query whose query string (after `?`) is exactly `bytes` long; the padding is an ignored parameter. */
const dealsQuery = (route: string, bytes: number): string => {
  const head = 'limit=1&pad=';
  return `${route}?${head}${'p'.repeat(bytes - head.length)}`;
};

describe('answers to long query strings are not cached', () => {
  for (const route of ['/api/v1/deals', '/api/v1/startups']) {
    test(`${route}: a query string of 512 bytes is cached, one of 513 bytes is computed again`, async () => {
      expect(await secondTiming(dealsQuery(route, 512))).toBe('cache;desc="hit"');
      expect(await secondTiming(dealsQuery(route, 513))).toMatch(/^app;dur=/);
    });
  }

  test('a 4 KB query string is computed on every request, however often it is asked', async () => {
    const path = dealsQuery('/api/v1/deals', 4096);
    for (let i = 0; i < 3; i++) expect(await secondTiming(path)).toMatch(/^app;dur=/);
  });
});
