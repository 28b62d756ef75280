/**
 * A real git host on 127.0.0.1 for the HTTPS content store: `git http-backend` (shipped with
 * git, found with `git --exec-path`) run as CGI behind a small node:http server on an
 * ephemeral port, serving the bare repositories of one folder, with HTTP Basic auth checking a
 * token. `failPushes` makes it drop the connection of every push (receive-pack) once the
 * request body has arrived, before git sees it: a network failure mid-push.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`; a repository is `${url}/<name>.git`. */
  url: string;
  /** Drop every push's connection (true) or serve them (false). */
  failPushes: boolean;
  /** Requests seen, by `METHOD path`, for tests that count round trips. */
  requests: string[];
  stop: () => Promise<void>;
}

const BACKEND = join(execFileSync('git', ['--exec-path']).toString('utf8').trim(), 'git-http-backend');

/**
 * Serve the bare repositories under `projectRoot`; requests without `Authorization: Basic`
 * carrying `token` as the password get 401.
 * @example const host = await startGitHttpServer('/tmp/work', 'secret'); // host.url + '/remote.git'
 */
export async function startGitHttpServer(projectRoot: string, token: string): Promise<GitHttpServer> {
  const state: GitHttpServer = { url: '', failPushes: false, requests: [], stop: async () => undefined };
  const server = createServer((req, res) => {
    state.requests.push(`${req.method} ${req.url}`);
    if (!authorized(req, token)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    if (state.failPushes && req.method === 'POST' && req.url?.endsWith('/git-receive-pack')) {
      req.resume();
      req.on('end', () => req.socket.destroy());
      return;
    }
    backend(req, res, projectRoot);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  state.url = `http://127.0.0.1:${port}`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

// --- internal ---

function authorized(req: IncomingMessage, token: string): boolean {
  const match = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

/** Run `git http-backend` for one request (CGI: request headers in the environment, body on stdin; status and headers first in its output). */
function backend(req: IncomingMessage, res: ServerResponse, projectRoot: string): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const child = spawn(BACKEND, [], {
    env: {
      PATH: process.env.PATH ?? '',
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      // Set by the web server after authentication; http-backend takes pushes only from an authenticated user.
      REMOTE_USER: 'writer',
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  // A client gone or a backend that stopped reading is the test's business, not an unhandled error.
  for (const stream of [req, res, child.stdin, child.stdout]) stream.on('error', () => undefined);
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    headersDone = true;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  child.stdout.on('end', () => {
    if (!headersDone) res.writeHead(502);
    res.end();
  });
  child.on('error', () => {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
}
