/**
 * Node adapter: turns a `node:http` request into a Web `Request` for the app (http/app.ts) and
 * writes its `Response` back, and nothing else. Who the client is comes from the socket (and
 * `X-Forwarded-*` behind trusted proxies only).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { App } from '../http/app.ts';
import { rawBody } from '../http/answer.ts';
import { givePieceBack, headerFields } from '../http/bytes-response.ts';
import { lazyRequest } from '../http/lazy-request.ts';
import { clientAddressFrom, forwardedHttps } from '../http/client-address.ts';
import type { Logger } from '../ops/log.ts';

/** Methods the Fetch standard forbids in a Request: sent to the app as GET, named in `Client.method` (it refuses them). */
const UNREPRESENTABLE_METHODS = new Set(['TRACE', 'TRACK']);

/**
 * Create (not start) the server.
 * @example createNodeServer(createApp(deps, { site }), { trustProxyHops: 0, log }).listen(4321)
 */
export function createNodeServer(app: App, options: { trustProxyHops: number; log: Logger }): Server {
  return createServer((req, res) => {
    const method = req.method ?? 'GET';
    const https = forwardedHttps(header(req, 'x-forwarded-proto'), options.trustProxyHops);
    const address = clientAddressFrom(req.socket.remoteAddress, header(req, 'x-forwarded-for'), options.trustProxyHops);
    app
      .fetch(toRequest(req, https, UNREPRESENTABLE_METHODS.has(method) ? 'GET' : method), { address, method, path: (req.url ?? '/').split('?')[0] })
      .then((response) => send(req, res, response))
      .catch((error: unknown) => {
        // The app answers every failure itself; this is a failure to write the answer.
        options.log.error('adapter_error', { path: req.url, error: error instanceof Error ? error.stack : String(error) });
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end();
        // Part of the body is out: ending would pass a short body off as whole.
        else res.destroy();
      });
  });
}

// --- internal ---

/**
 * Write a Web Response: bytes at once when the app made them, else the stream (stopped when the
 * client goes). Settles once a body copied as it is read has been made.
 */
function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> | undefined {
  const { fields, cookies } = headerFields(response);
  const headers: Record<string, string | string[]> = fields;
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const bytes = rawBody(response);
  if (bytes) headers['content-length'] = String(bytes.byteLength);
  // Answered before the body was read (405, 401, 413…): the rest of it would block the next request on this connection.
  if (!req.complete) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (bytes instanceof Uint8Array) res.end(bytes);
  else if (bytes?.copies) return writeAsTaken(res, bytes.pieces());
  else if (bytes) writeRuns(res, bytes.pieces());
  else if (!response.body) res.end();
  // The client may be gone already: then the body is dropped, not piped.
  else if (res.destroyed) void response.body.cancel();
  else pipeline(Readable.fromWeb(response.body as NodeReadableStream), res, () => undefined);
  return undefined;
}

/** The runs of a huge list (answer.ts `assembledList`), as they are, in one write to the socket. */
function writeRuns(res: ServerResponse, runs: Iterable<Uint8Array>): void {
  res.cork();
  for (const run of runs) res.write(run);
  res.end();
  res.uncork();
}

/**
 * Runs made as they are read (a huge list of scattered records): made while less than
 * QUEUED_BYTES wait for the socket, then only as it drains, so a slow client holds that much of
 * the answer, not all of it. Each piece, once the socket has it, is given back for a later one.
 * A client gone mid-way ends the making.
 */
async function writeAsTaken(res: ServerResponse, runs: Iterable<Uint8Array>): Promise<void> {
  // A HEAD answer has no body: nothing to make.
  if (res.req.method === 'HEAD') return void res.end();
  for (const run of runs) {
    if (res.destroyed) return givePieceBack(run);
    res.write(run, () => givePieceBack(run));
    if (res.writableLength >= QUEUED_BYTES) await drainedOrClosed(res);
  }
  if (!res.destroyed) res.end();
}

/**
 * How much of an answer made as it is read may wait for the socket. Waiting for each 64 KiB
 * piece to drain served a 621 KB answer about a quarter less often (docs/performance.md).
 */
const QUEUED_BYTES = 512 * 1024;

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const go = (): void => {
      res.off('drain', go);
      res.off('close', go);
      resolve();
    };
    res.on('drain', go);
    res.on('close', go);
  });
}

/** IncomingMessage → Web Request (https:// when a trusted proxy says so); the body streams only for methods that carry one. */
function toRequest(req: IncomingMessage, https: boolean, method: string): Request {
  const url = `${https ? 'https' : 'http'}://${usableHost(req.headers.host)}${req.url ?? '/'}`;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return lazyRequest(req, method, url);
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return new Request(url, { method, headers, body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } as RequestInit);
}

/** The Host header when it is a plain name or address with a valid port; `localhost` otherwise. */
function usableHost(host: string | undefined): string {
  const match = /^[\w.-]+(?::(\d{1,5}))?$/.exec(host ?? '');
  return match && (match[1] === undefined || Number(match[1]) <= 65535) ? (host as string) : 'localhost';
}

/** A request header, repeated values joined. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
