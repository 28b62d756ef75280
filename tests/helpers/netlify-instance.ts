/**
 * One Netlify function instance as its own process, for tests of several instances: it imports
 * the function's entry (netlify/functions/api.ts) and serves it over node:http, by the
 * documented handler contract (a Web Request in; the client address, a request id and
 * `waitUntil` in the context; a Response out), not the Netlify CLI (not installed; its offline
 * emulation is not assumed). The settings come from the environment; the client address from
 * the `X-Test-Client-Ip` header (the platform's `context.ip`). The URL is reported over IPC.
 * `POST /.netlify/functions/hourly` runs the scheduled function (netlify/functions/hourly.ts) in
 * the same process, as `netlify functions:invoke` does; on Netlify it has no URL.
 * Run through `startNetlifyInstance`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { join } from 'node:path';

export interface NetlifyInstance {
  url: string;
  process: ChildProcess;
  output: string[];
  stop: () => Promise<void>;
}

/** Fork an instance with these settings (added to the test's environment). */
export async function startNetlifyInstance(env: Record<string, string>): Promise<NetlifyInstance> {
  const output: string[] = [];
  const child = fork(import.meta.filename, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: [] });
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(String(message)));
    child.once('exit', (code) => reject(new Error(`the instance exited (${code}): ${output.join('\n')}`)));
  });
  return {
    url,
    process: child,
    output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// --- the child ---

async function serve(): Promise<void> {
  const functions = join(import.meta.dirname, '..', '..', 'netlify', 'functions');
  const { default: api } = (await import(join(functions, 'api.ts'))) as {
    default: (request: Request, context: { ip?: string; requestId?: string; waitUntil?: (work: Promise<unknown>) => void }) => Promise<Response>;
  };
  const { default: hourly } = (await import(join(functions, 'hourly.ts'))) as { default: () => Promise<Response> };
  const server = createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`https://${req.headers.host}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
    } as RequestInit);
    const background: Promise<unknown>[] = [];
    const handled =
      req.url === '/.netlify/functions/hourly' && req.method === 'POST'
        ? hourly()
        : api(request, { ip: headers.get('x-test-client-ip') ?? req.socket.remoteAddress ?? 'unknown', waitUntil: (work) => background.push(work) });
    handled
      .then(async (response) => {
        const out: Record<string, string | string[]> = {};
        response.headers.forEach((value, name) => {
          if (name !== 'set-cookie') out[name] = value;
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) out['set-cookie'] = cookies;
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
        await Promise.all(background);
      })
      .catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  server.listen(0, '127.0.0.1', () => process.send?.(`http://127.0.0.1:${(server.address() as { port: number }).port}`));
  process.once('SIGTERM', () => process.exit(0));
}

if (process.send && process.argv[1] === import.meta.filename) await serve();
