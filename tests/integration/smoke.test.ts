import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIXTURES, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(join(FIXTURES, 'valid'));
});
afterAll(async () => {
  await server.stop();
});

test('lists deals', async () => {
  const response = await fetch(`${server.url}/api/v1/deals`);
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.success).toBe(true);
  expect(server.errors).toEqual([]);
});
