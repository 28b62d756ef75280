/**
 * A real PostgreSQL server (the Debian `postgresql` package) for tests of the shared
 * submission store: a fresh cluster in a temporary folder, its own process on a free loopback
 * port, trust authentication, stopped by the test. PostgreSQL refuses to run as root, so
 * initdb and the server run with the `postgres` user's ids (switching needs root, as the other
 * reliability tests do); started directly, not through runuser, so signals reach the server.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** A new empty database on this server; resolves with its URL. */
  createDatabase: (name: string) => Promise<string>;
  stop: () => Promise<void>;
}

const MISSING = 'PostgreSQL is not installed: apt-get install postgresql (the tests look for /usr/lib/postgresql/<version>/bin/initdb)';

/**
 * @example const postgres = await startPostgresServer(); … DATABASE_URL = await postgres.createDatabase('shared')
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBin();
  if (process.getuid?.() !== 0) throw new Error('the PostgreSQL test server runs as the `postgres` user, which needs root (run npm run test:reliability as root)');
  const user = postgresUser();
  const work = await mkdtemp(join(tmpdir(), 'deals-postgres-'));
  const data = join(work, 'data');
  // The cluster belongs to `postgres`; the folder above it must let that user in.
  await chmod(work, 0o755);
  await chown(work, user.uid, user.gid);
  const options = { ...user, cwd: work, env: { ...process.env, HOME: work, LC_ALL: 'C' } };
  try {
    execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions'], { ...options, stdio: 'pipe' });
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw new Error(`initdb failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`, { cause: error });
  }
  const port = await freePort();
  const child = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', work, '-c', 'max_connections=50'], { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
  const output: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await waitUntilReady(url, child, output);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(work, { recursive: true, force: true });
    throw error;
  }
  process.once('exit', () => child.kill('SIGKILL'));
  return {
    url,
    port,
    createDatabase: async (name) => {
      await withClient(url, (client) => client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`));
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    stop: async () => {
      // SIGINT: the "fast" shutdown (clients disconnected, no recovery needed).
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
      await rm(work, { recursive: true, force: true });
    },
  };
}

// --- internal ---

/** The newest installed PostgreSQL's bin folder, or a clear error naming the package. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(MISSING);
  return join(root, newest, 'bin');
}

/** The ids of the `postgres` system user the package creates. */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch (error) {
    throw new Error(`no \`postgres\` user: ${MISSING}`, { cause: error });
  }
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Resolves once the server takes a query (within 20 s), or rejects with its output. */
async function waitUntilReady(url: string, child: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}):\n${output.join('')}`);
    try {
      await withClient(url, (client) => client.query('SELECT 1'));
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`postgres did not accept connections in 20 s:\n${output.join('')}`);
}
