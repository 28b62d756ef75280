/**
 * Regressions found by the reliability fuzz (tests/reliability/fuzz.test.ts), pinned here so
 * `npm test` catches them quickly: each request once made the server answer 500, hang or log
 * an error. Raw sockets, since `fetch` refuses to send most of these.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { expectErrorBody } from '../helpers/api-schemas.ts';
import { FIXTURES, startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN, addAccount, call, login } from '../helpers/writes-harness.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

let server: TestServer;
let cookie: string;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'deals-hostile-data-'));
  addAccount(dataDir, ADMIN);
  server = await startTestServer(join(FIXTURES, 'valid'), { DATA_DIR: dataDir });
  cookie = await login(server.url, ADMIN);
});
afterAll(async () => {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});
afterEach(() => {
  expect(server.errors).toEqual([]);
});

/** Write raw bytes on one connection; resolve with everything read until it closes or goes quiet. */
function exchange(chunks: (string | Buffer)[], { closeAfterWrite = false, quietMs = 800 } = {}): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(received).toString('latin1'));
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, quietMs);
    };
    socket.on('data', (data) => {
      received.push(data);
      quiet();
    });
    socket.on('close', finish);
    socket.on('error', (error) => (received.length ? finish() : reject(error)));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      if (closeAfterWrite) socket.end();
      quiet();
    });
  });
}

const statusLines = (text: string): string[] => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

test('TRACE is a 405 with the error object, not a 500', async () => {
  const text = await exchange(['TRACE /api/v1/deals HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n']);
  expect(statusLines(text)).toEqual(['HTTP/1.1 405']);
  expect(text).toMatch(/\r\nallow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n/i);
  expect(text).toMatch(/\r\napi-version: v1\r\n/i);
  expect(expectErrorBody(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).code).toBe('method_not_allowed');
});

test('a Host header with an impossible port is answered, not a 500', async () => {
  const text = await exchange(['GET /api/v1/deals?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:99999\r\nConnection: close\r\n\r\n']);
  expect(statusLines(text)).toEqual(['HTTP/1.1 200']);
});

test('the next request on a kept-alive connection is not stuck behind an unread large body', async () => {
  const body = 'x'.repeat(300 * 1024);
  const text = await exchange([
    `POST /api/v1/startups HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
    'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
  ]);
  const lines = statusLines(text);
  expect(lines[0]).toBe('HTTP/1.1 405');
  // Either the server closes after the early answer (Connection: close) or it answers the next request; never silence.
  if (lines.length === 1) expect(text).toMatch(/\r\nconnection: close\r\n/i);
  else expect(lines[1]).toBe('HTTP/1.1 200');
});

test('deeply nested JSON in an admin write is a 400, not a stack overflow', async () => {
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const result = await call(server.url, 'POST', '/api/v1/deals', {
    cookie,
    rawBody: `{"title":"Deep","provider":"x","category":"cloud-credits","applicationUrl":"https://x.example","eligibility":${deep}}`,
  });
  expect(result.status, result.text).toBe(400);
  expect(expectErrorBody(result.body).code).toBe('bad_request');
});

test('an upload the client abandons is not logged as a server error', async () => {
  const text = await exchange(['POST /api/v1/submit-deal HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1'], { closeAfterWrite: true, quietMs: 300 });
  expect(statusLines(text)).toEqual(['HTTP/1.1 400']);
  // A whole request after it is answered normally, and by then the abandoned one has been dealt with.
  const next = await call(server.url, 'POST', '/api/v1/submit-deal', { origin: null, body: { company_name: 'x' } });
  expect(expectErrorBody(next.body).code).toBe('validation_error');
  expect(server.errors).toEqual([]);
});

test('an /api alias with a huge query string gets a successor Link without the query', async () => {
  const text = await exchange([`GET /api/deals?x=${'a'.repeat(15_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`]);
  const head = text.slice(0, text.indexOf('\r\n\r\n'));
  expect(head).toMatch(/\r\nlink: <\/api\/v1\/deals>; rel="successor-version"/i);
  expect(head.length).toBeLessThan(4096);
});
