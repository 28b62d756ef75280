/**
 * Support of the `npm run verify-links` tests: the CLI in a child process, the links of a
 * content folder, and local web servers that play each fate a link can meet: one HTTP and one
 * HTTPS server on 127.0.0.1 answering by Host and path from a plan (URL → behaviour), a
 * certificate trusted through NODE_EXTRA_CA_CERTS for the planned hosts and an untrusted one
 * for `bad-cert` hosts (chosen by SNI), and a closed port for `refused` hosts. The checker
 * reaches them with `--resolve`, so the links keep their real names.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as TlsServer } from 'node:https';
import { join, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { isHomePage } from '../../functions/links/classify.ts';
import { checkedRecords, collectLinks, type LinkTarget } from '../../functions/links/collect.ts';
import type { Verdict } from '../../functions/links/report.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { freePort } from './free-port.ts';
import { selfSignedCertificate } from './nginx-server.ts';

/** What a planted link does when fetched. */
export type Behaviour =
  | 'ok'
  | 'temp-redirect'
  | 'moved'
  | 'gone-404'
  | 'gone-410'
  | 'not-found-text'
  | 'ended-text'
  | 'catch-all'
  | 'home-redirect'
  | 'parked-text'
  | 'parked-redirect'
  | 'hang'
  | 'flaky'
  | 'bad-cert'
  | 'refused';

/** The verdict each behaviour must get (a site's home page never looks like its answer to a random path: see `expectedVerdict`). */
export const EXPECTED: Record<Behaviour, Verdict> = {
  ok: 'ok',
  'temp-redirect': 'ok',
  moved: 'moved',
  'gone-404': 'gone',
  'gone-410': 'gone',
  'not-found-text': 'soft-404',
  'ended-text': 'soft-404',
  'catch-all': 'soft-404',
  'home-redirect': 'home-redirect',
  'parked-text': 'parked',
  'parked-redirect': 'parked',
  hang: 'timeout',
  flaky: 'ok',
  'bad-cert': 'tls',
  refused: 'error',
};

export interface LinkServers {
  /** `--resolve` arguments pointing every host at the servers. */
  resolveArgs: string[];
  /** The environment the checker needs (the trusted certificate). */
  env: Record<string, string>;
  /** The most requests one host had in flight at once. */
  maxInFlightPerHost: () => number;
  /** Every User-Agent the servers were sent. */
  userAgents: ReadonlySet<string>;
  stop: () => Promise<void>;
}

/** The parking service `parked-redirect` sends links to. */
export const PARKING_HOST = 'sedo.com';

/**
 * @param dir a folder of the test's, for the certificates
 * @param plan the behaviour of each URL (as `new URL(link).href`); a host-level behaviour applies to its whole host
 */
export async function startLinkServers(dir: string, plan: ReadonlyMap<string, Behaviour>): Promise<LinkServers> {
  const hostsWith = (behaviour: Behaviour) => new Set([...plan].filter(([, b]) => b === behaviour).map(([url]) => new URL(url).hostname));
  const [badCertHosts, refusedHosts, catchAllHosts] = [hostsWith('bad-cert'), hostsWith('refused'), hostsWith('catch-all')];
  const hosts = [...new Set([...plan.keys()].map((url) => new URL(url).hostname))];
  await Promise.all(['trusted', 'untrusted'].map((name) => mkdir(join(dir, name), { recursive: true })));
  const trusted = await selfSignedCertificate(join(dir, 'trusted'), [...hosts, PARKING_HOST]);
  const untrusted = await selfSignedCertificate(join(dir, 'untrusted'));
  const contexts = {
    trusted: createSecureContext({ cert: trusted.pem, key: await readFile(trusted.key, 'utf8') }),
    untrusted: createSecureContext({ cert: untrusted.pem, key: await readFile(untrusted.key, 'utf8') }),
  };

  const inFlight = new Map<string, number>();
  let maxInFlight = 0;
  const userAgents = new Set<string>();
  const flakyTries = new Map<string, number>();
  const handle = (scheme: 'http' | 'https') => (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(`${scheme}://${request.headers.host}${request.url}`);
    userAgents.add(request.headers['user-agent'] ?? '');
    inFlight.set(url.hostname, (inFlight.get(url.hostname) ?? 0) + 1);
    maxInFlight = Math.max(maxInFlight, inFlight.get(url.hostname) ?? 0);
    response.on('close', () => inFlight.set(url.hostname, (inFlight.get(url.hostname) ?? 1) - 1));
    const planned = plan.get(url.href);
    // A home page has nowhere "home" to go: it answers as the site does.
    const behaviour = planned === 'home-redirect' && url.pathname === '/' ? 'ok' : (planned ?? fallback(url, catchAllHosts));
    play(behaviour, url, response, flakyTries);
  };
  const http = createHttpServer(handle('http'));
  const https = createHttpsServer({ SNICallback: (name, done) => done(null, badCertHosts.has(name) ? contexts.untrusted : contexts.trusted) }, handle('https'));
  const [httpPort, httpsPort, closedPort] = await Promise.all([listen(http), listen(https), freePort()]);
  const refused = [...refusedHosts].flatMap((host) => [`${host}:443:127.0.0.1:${closedPort}`, `${host}:80:127.0.0.1:${closedPort}`]);
  return {
    resolveArgs: [...refused, `*:443:127.0.0.1:${httpsPort}`, `*:80:127.0.0.1:${httpPort}`].flatMap((entry) => ['--resolve', entry]),
    env: { NODE_EXTRA_CA_CERTS: trusted.cert },
    maxInFlightPerHost: () => maxInFlight,
    userAgents,
    stop: async () => {
      await Promise.all([http, https].map(close));
    },
  };
}

/**
 * The verdict a planted link must get: its behaviour's, except that a home page (`/`, or a
 * language's, such as `/en/`) is not "redirected home" nor a soft-404 for answering like any
 * other path: it is the page a site answers with.
 */
export function expectedVerdict(url: string, behaviour: Behaviour): Verdict {
  return isHomePage(url) && (behaviour === 'home-redirect' || behaviour === 'catch-all') ? 'ok' : EXPECTED[behaviour];
}

/** The links `verify-links` checks in a content folder (drafts included), read as it reads them. */
export async function contentLinks(contentDir: string): Promise<LinkTarget[]> {
  const built = runPipeline(await readContent(contentDir), { today: '2026-11-23', index: false });
  if (!built.value) throw new Error(`${contentDir} does not build`);
  return collectLinks(checkedRecords(built.value.data));
}

/** `npm run verify-links` in a child process (asynchronous: the servers answer from this one). */
export function runVerifyLinks(args: readonly string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'verify-links.ts'), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return new Promise((done) => child.on('close', (status) => done({ status, ...output })));
}

/** Every file under a folder, by path, as a SHA-256 of its bytes: to show a run changed none. */
export async function folderHashes(root: string): Promise<Map<string, string>> {
  const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  const pairs = await Promise.all(
    files.map(
      async (file) =>
        [
          file,
          createHash('sha256')
            .update(await readFile(file))
            .digest('hex'),
        ] as const,
    ),
  );
  return new Map(pairs.sort(([a], [b]) => a.localeCompare(b)));
}

// --- internal ---

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Paths not in the plan: a home page, the pages redirects lead to, a catch-all host's page, else 404. */
function fallback(url: URL, catchAllHosts: ReadonlySet<string>): Behaviour | undefined {
  if (catchAllHosts.has(url.hostname)) return 'catch-all';
  if (url.pathname === '/' || url.pathname.startsWith('/landing/') || url.pathname.startsWith('/moved-here/') || url.hostname === PARKING_HOST) return 'ok';
  return undefined;
}

function play(behaviour: Behaviour | undefined, url: URL, response: ServerResponse, flakyTries: Map<string, number>): void {
  const redirect = (status: number, location: string) => void response.writeHead(status, { Location: location }).end();
  const page = (title: string, body: string) => void response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html(title, url.hostname, body));
  switch (behaviour) {
    case 'ok':
    case 'bad-cert':
    case 'refused':
      return page(`${url.pathname} – ${url.hostname}`, programText(url));
    case 'temp-redirect':
      return redirect(302, `/landing${url.pathname}`);
    case 'moved':
      return redirect(301, `/moved-here${url.pathname}`);
    case 'gone-404':
    case undefined:
      return void response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
    case 'gone-410':
      return void response.writeHead(410, { 'Content-Type': 'text/plain' }).end('Gone');
    case 'not-found-text':
      return page(url.hostname, `<h1>Sorry, this page could not be found.</h1><p>Try the search or go back to ${url.hostname}.</p>`);
    case 'ended-text':
      return page(`Startup program – ${url.hostname}`, '<h1>This program has ended</h1><p>Thank you to the thousands of founders who took part. Follow us for what comes next.</p>');
    case 'catch-all':
      // The same page for every path, as single-page sites and some CMSs answer unknown paths.
      return page(
        `Welcome – ${url.hostname}`,
        `<h1>Welcome to ${url.hostname}</h1><p>${'We build tools for teams of every size, with plans for startups, growing companies and enterprises around the world. '.repeat(3)}</p>`,
      );
    case 'home-redirect':
      return redirect(302, '/');
    case 'parked-text':
      return page(url.hostname, `<h1>${url.hostname}</h1><p>This domain is for sale! Buy this domain today from a trusted broker.</p>`);
    case 'parked-redirect':
      return redirect(302, `https://${PARKING_HOST}/search/details/?domain=${url.hostname}`);
    case 'hang':
      return;
    case 'flaky': {
      const tries = (flakyTries.get(url.href) ?? 0) + 1;
      flakyTries.set(url.href, tries);
      if (tries === 1) return void response.writeHead(503, { 'Retry-After': '1' }).end('busy');
      return page(`${url.pathname} – ${url.hostname}`, programText(url));
    }
  }
}

/** A real page's worth of words, different for each path. */
function programText(url: URL): string {
  const words = url.pathname.split(/[/-]/).filter(Boolean).join(' ');
  return `<nav>Home Pricing Startups Docs Contact</nav><h1>${words || 'Home'}</h1><p>Apply to ${words || 'our programs'} to get credits, support from our team and discounts on the tools founders use every day. Eligible companies are under ten years old and have raised less than five million dollars.</p>`;
}

function html(title: string, host: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>body{font:16px sans-serif}</style></head><body>${body}<footer>© ${host}</footer><script>console.log('analytics')</script></body></html>`;
}

function listen(server: Server | TlsServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

function close(server: Server | TlsServer): Promise<void> {
  // Hanging requests stay open until closed here.
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
