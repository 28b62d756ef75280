/**
 * The Node adapter writing an answer copied in pieces as it is read (bytes-response.ts
 * `ByteRuns` that `copies`, made by answer.ts `copiedPieces` for huge filtered lists): over a
 * real socket, every byte arrives with the announced length; a client that stops reading stops
 * the making, so the server never holds the whole answer for it; a client gone mid-way ends it.
 */
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createNodeServer } from '../../functions/adapters/node.ts';
import { ByteRuns, BytesResponse, takePiece } from '../../functions/http/bytes-response.ts';
import { createLogger } from '../../functions/ops/log.ts';

const PIECE = 64 * 1024;
const PIECES = 1024;
/** 64 MiB: more than loopback's socket buffers take while the client does not read. */
const SIZE = PIECE * PIECES;
let made = 0;
const logged: string[] = [];
let server: Server;
let port: number;

/** Piece i holds the byte i % 251 throughout, so order and completeness show in the bytes. */
function* pieces(): Generator<Uint8Array> {
  for (let i = 0; i < PIECES; i++) {
    made++;
    yield Buffer.alloc(PIECE, i % 251);
  }
}

/** Two pieces, then a failure while making the third. */
function* broken(): Generator<Uint8Array> {
  yield Buffer.alloc(PIECE, 1);
  yield Buffer.alloc(PIECE, 2);
  throw new RangeError('a piece could not be made');
}

/** 2 MiB in pieces whose memory is given back once written, piece i holding the byte (request + i) % 251. */
const POOLED_PIECES = 32;
let requests = 0;
function* pooled(): Generator<Uint8Array> {
  const request = requests++;
  for (let i = 0; i < POOLED_PIECES; i++) yield takePiece(PIECE).fill((request + i) % 251);
}

beforeAll(async () => {
  const app = {
    fetch: (request: Request) => {
      const body = request.url.endsWith('/pooled') ? new ByteRuns(PIECE * POOLED_PIECES, pooled) : request.url.endsWith('/broken') ? new ByteRuns(SIZE, broken) : new ByteRuns(SIZE, pieces);
      return Promise.resolve(new BytesResponse(body, { status: 200, headers: { 'Content-Type': 'application/json' } }));
    },
  };
  server = createNodeServer(app, { trustProxyHops: 0, log: createLogger((line) => void logged.push(line)) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw GET; resolves once the response's head has come. */
async function requestHead(): Promise<{ socket: Socket; head: string; rest: Buffer[] }> {
  const socket = connect(port, '127.0.0.1');
  socket.write('GET /list HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  let seen = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      seen = Buffer.concat([seen, chunk]);
      const end = seen.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      resolve({ socket, head: seen.subarray(0, end).toString(), rest: [seen.subarray(end + 4)] });
    };
    socket.on('data', onData);
    socket.on('error', reject);
  });
}

test('every byte arrives, in order, with the length announced', async () => {
  made = 0;
  const response = await fetch(`http://127.0.0.1:${port}/list`);
  expect(response.headers.get('content-length')).toBe(String(SIZE));
  const body = Buffer.from(await response.arrayBuffer());
  expect(body.byteLength).toBe(SIZE);
  for (let i = 0; i < PIECES; i++) expect(body[i * PIECE], `piece ${i}`).toBe(i % 251);
  expect(made).toBe(PIECES);
});

test('a HEAD request makes nothing, and announces the length', async () => {
  made = 0;
  const response = await fetch(`http://127.0.0.1:${port}/list`, { method: 'HEAD' });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-length')).toBe(String(SIZE));
  expect(made).toBe(0);
});

test('a client that stops reading stops the making; reading again finishes the answer', async () => {
  made = 0;
  const { socket, head, rest } = await requestHead();
  expect(head).toMatch(/^HTTP\/1\.1 200/);
  await wait(400);
  // What the socket buffers took, and a piece waiting: far from the whole answer.
  const whilePaused = made;
  expect(whilePaused).toBeLessThan(PIECES / 4);
  await wait(200);
  expect(made).toBe(whilePaused);
  const received = await new Promise<number>((resolve) => {
    let bytes = rest.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    socket.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
    socket.on('end', () => resolve(bytes));
    socket.resume();
  });
  expect(received).toBe(SIZE);
  expect(made).toBe(PIECES);
});

test('a client gone mid-way ends the making, and the server answers the next one', async () => {
  made = 0;
  const { socket } = await requestHead();
  await wait(200);
  socket.destroy();
  await wait(300);
  const afterClose = made;
  expect(afterClose).toBeLessThan(PIECES);
  await wait(200);
  expect(made).toBe(afterClose);
  const next = await fetch(`http://127.0.0.1:${port}/list`);
  expect((await next.arrayBuffer()).byteLength).toBe(SIZE);
  expect(logged.filter((line) => line.includes('"error"'))).toEqual([]);
});

test('pieces given back are made again only once written: 24 clients at once each get their own bytes', async () => {
  const bodies = await Promise.all(
    Array.from({ length: 24 }, async () => {
      const response = await fetch(`http://127.0.0.1:${port}/pooled`);
      return Buffer.from(await response.arrayBuffer());
    }),
  );
  for (const body of bodies) {
    expect(body.byteLength).toBe(PIECE * POOLED_PIECES);
    // Each piece is one byte throughout, the next piece's byte one more: a piece overwritten while written would break either.
    const first = body[0] as number;
    for (let i = 0; i < POOLED_PIECES; i++) {
      const piece = body.subarray(i * PIECE, (i + 1) * PIECE);
      expect(
        piece.every((byte) => byte === (first + i) % 251),
        `piece ${i}`,
      ).toBe(true);
    }
  }
});

test('a failure while making pieces is logged, and the connection ends instead of a short body passing for whole', async () => {
  // The client sees a failed exchange (at its head or in its body), never a body that ends early as if whole.
  const outcome = await fetch(`http://127.0.0.1:${port}/broken`)
    .then((response) => response.arrayBuffer())
    .then(
      () => 'whole',
      () => 'failed',
    );
  expect(outcome).toBe('failed');
  await wait(50);
  expect(logged.some((line) => line.includes('"adapter_error"') && line.includes('a piece could not be made'))).toBe(true);
  logged.length = 0;
});
