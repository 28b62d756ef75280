/**
 * Helpers for the write-path integration tests: local accounts made with the real
 * `scripts/admin.ts`, a test server whose DATA_DIR holds them, real sign-in over HTTP, JSON
 * requests carrying the session cookie and `Origin`, and git inspection of the content repo.
 */
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { expectErrorBody, type ErrorBody } from './api-schemas.ts';
import { FIXTURES, startTestServer, type TestServer } from './server.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..');

export interface TestAccount {
  email: string;
  role: 'admin' | 'member';
  password: string;
}

export const ADMIN: TestAccount = { email: 'ada@example.com', role: 'admin', password: 'correct-horse-1' };
export const MEMBER: TestAccount = { email: 'mel@example.com', role: 'member', password: 'battery-staple-2' };

/**
 * Add (or replace) an account in `dataDir`'s database through the project's own CLI (`password: ''`:
 * an SSO-only account); `env` may name another database (`DATABASE_URL`).
 */
export function addAccount(dataDir: string, account: TestAccount, env: Record<string, string> = {}): void {
  const secret = account.password ? ['--password', account.password] : ['--sso'];
  execFileSync(process.execPath, ['scripts/admin.ts', 'add', account.email, '--role', account.role, ...secret], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ...env },
    stdio: 'pipe',
  });
}

export interface WriteServer {
  server: TestServer;
  url: string;
  /** The git work tree holding `content/`. */
  repo: string;
  contentDir: string;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * A fresh DATA_DIR with `accounts`, a fresh git copy of a content tree, and the real server on it.
 * @param options.source the content tree (the `valid` fixture by default)
 * @param options.distDir a built site to serve (startTestServer)
 */
export async function startWriteServer(
  accounts: readonly TestAccount[] = [ADMIN, MEMBER],
  env: Record<string, string> = {},
  options: { source?: string; distDir?: string } = {},
): Promise<WriteServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'deals-writes-data-'));
  for (const account of accounts) addAccount(dataDir, account);
  const server = await startTestServer(options.source ?? join(FIXTURES, 'valid'), { ...env, DATA_DIR: dataDir }, { distDir: options.distDir });
  const contentDir = server.config.contentDir;
  return {
    server,
    url: server.url,
    repo: dirname(contentDir),
    contentDir,
    dataDir,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The hooks of a write-test file: start a write server with `accounts` before its tests (then
 * `ready`, e.g. to sign in), stop it after them, and fail any test after which the server
 * logged an error (STYLE 12: an unexpected 500 above all).
 */
export function useWriteServer(accounts: readonly TestAccount[], ready: (server: WriteServer) => Promise<void> | void, env: Record<string, string> = {}, source?: () => string): void {
  let server: WriteServer | undefined;
  beforeAll(async () => {
    server = await startWriteServer(accounts, env, { source: source?.() });
    await ready(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(() => {
    if (server) expect(takeErrors(server.server)).toEqual([]);
  });
}

/** A write server with an admin and a member signed in (see `useAdminServer`). */
export interface AdminServer {
  readonly env: WriteServer;
  /** The admin's `Cookie` header value. */
  readonly cookie: string;
  readonly memberCookie: string;
  /** An admin request from the site itself. */
  admin: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<JsonResult>;
}

/**
 * `useWriteServer` with `ADMIN` and `MEMBER`, both signed in; the returned object is filled in
 * when the server is up, so use it inside tests only.
 */
export function useAdminServer(): AdminServer {
  const state = {} as { env: WriteServer; cookie: string; memberCookie: string };
  useWriteServer([ADMIN, MEMBER], async (started) => {
    state.env = started;
    [state.cookie, state.memberCookie] = await Promise.all([login(started.url, ADMIN), login(started.url, MEMBER)]);
  });
  return {
    get env() {
      return state.env;
    },
    get cookie() {
      return state.cookie;
    },
    get memberCookie() {
      return state.memberCookie;
    },
    admin: (method, path, body, headers) => call(state.env.url, method, path, { cookie: state.cookie, body, ...(headers ? { headers } : {}) }),
  };
}

export interface JsonResult {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is, e.g. malformed JSON). */
  rawBody?: string;
  cookie?: string;
  /** `Origin` header; defaults to the server's own origin, `null` sends none. */
  origin?: string | null;
  headers?: Record<string, string>;
  /** The certificate to trust for an https:// `base` (a self-signed one); `callFrom` only. */
  ca?: string;
}

/** One request through Node's fetch, JSON in and out. */
export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<JsonResult> {
  const headers: Record<string, string> = { ...options.headers };
  const origin = options.origin === undefined ? base : options.origin;
  if (origin !== null) headers.Origin = origin;
  if (options.cookie) headers.Cookie = options.cookie;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/**
 * A JSON request from a chosen loopback source address (127.x.y.z), so tests can act as
 * distinct clients for the per-address limits. Uses `node:http` (`node:https` for an https://
 * `base`, trusting `options.ca`) because fetch cannot bind.
 */
export function callFrom(localAddress: string, base: string, method: string, path: string, options: CallOptions = {}): Promise<JsonResult> {
  const url = new URL(path, base);
  const headers: Record<string, string> = { ...options.headers };
  const origin = options.origin === undefined ? base : options.origin;
  if (origin !== null) headers.Origin = origin;
  if (options.cookie) headers.Cookie = options.cookie;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request({ host: url.hostname, port: url.port, method, path: `${url.pathname}${url.search}`, headers, localAddress, agent: false, ca: options.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one);
        }
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: parsed, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sign in with JSON and return the `Cookie` header value (`deals_session=…`). */
export async function login(base: string, account: Pick<TestAccount, 'email' | 'password'>): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('deals_session='));
  expect(cookie).toBeDefined();
  return (cookie as string).split(';')[0] as string;
}

/**
 * The error lines the server logged since the last call, which are then forgotten (so one
 * failing test does not fail every later one). STYLE 12: a test asserts this is empty.
 */
export function takeErrors(server: TestServer): string[] {
  return server.errors.splice(0, server.errors.length);
}

/** Assert a SPEC error object with this status and code; returns it. */
export function expectError(result: JsonResult, status: number, code: string): ErrorBody {
  expect(result.status, result.text).toBe(status);
  const error = expectErrorBody(result.body);
  expect(error.code, result.text).toBe(code);
  return error;
}

/** Run git in `repo` and return stdout. */
export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
}

export const headOf = (repo: string): string => git(repo, 'rev-parse', 'HEAD').trim();
export const commitCount = (repo: string): number => Number(git(repo, 'rev-list', '--count', 'HEAD').trim());
export const porcelain = (repo: string): string => git(repo, 'status', '--porcelain', '--untracked-files=all');

/** `git show --name-status` of one commit, as `[status, ...paths]` rows. */
export function changedFiles(repo: string, commit = 'HEAD'): string[][] {
  return git(repo, 'show', '-M', '--name-status', '--format=', commit)
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
}

/** Snapshot of the repo for "nothing changed" checks. */
export function repoState(repo: string): { head: string; count: number; status: string } {
  return { head: headOf(repo), count: commitCount(repo), status: porcelain(repo) };
}

/** Assert the repo is exactly as in `before` and its work tree is clean. */
export function expectUnchanged(repo: string, before: { head: string; count: number }): void {
  expect(porcelain(repo)).toBe('');
  expect(headOf(repo)).toBe(before.head);
  expect(commitCount(repo)).toBe(before.count);
}

/** A valid submission body from `name` Co, distinct per `n` (so none is a duplicate of another). */
export function submissionBody(name: string, n: number): Record<string, string> {
  const site = `https://${name.toLowerCase()}.example`;
  return {
    company_name: `${name} Co ${n}`,
    website_url: site,
    deal_value: '10% off',
    redemption_link: `${site}/${n}`,
    benefit_description: 'Ten percent off the first year for startups of any size.',
    category: 'saas',
  };
}

/** Poll until `check` holds (or fail after `ms`): for what another process does in its own time. */
export async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A fresh unique token for titles and names (lower-case letters only, so it survives slugify and search). */
export function uniqueWord(prefix = 'zq'): string {
  let word = prefix;
  for (let i = 0; i < 8; i++) word += String.fromCharCode(97 + Math.floor(Math.random() * 26));
  return word;
}
