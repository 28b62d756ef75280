/**
 * Accounts in PostgreSQL (`DATABASE_URL`): the Debian server started on 127.0.0.1 for this
 * file. Several instances open one database at once (the schema is applied once); two real
 * servers share it: an account `npm run admin` adds there signs in on both, and a revoke made
 * through the CLI signs its sessions out on both within the 2 s the servers reuse a read.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openAccountStore } from '../../functions/auth/account-store.ts';
import { MIGRATIONS } from '../../functions/db/migrations.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { FIXTURES, startTestServer, type TestServer } from '../helpers/server.ts';
import { PROJECT_ROOT } from '../helpers/writes-harness.ts';

let postgres: PostgresServer;
let work: string;
beforeAll(async () => {
  postgres = await startPostgresServer();
  work = await mkdtemp(join(tmpdir(), 'deals-accounts-pg-'));
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
});

test('eight instances opening one new database at once apply the schema once', async () => {
  const url = await postgres.createDatabase('accounts_race');
  const stores = await Promise.all(Array.from({ length: 8 }, (_, i) => openAccountStore({ dataDir: join(work, `race-${i}`), databaseUrl: url })));
  await Promise.all(stores.map((s) => s.close()));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  } finally {
    await client.end();
  }
});

test('two servers on one database: an account added with the CLI signs in on both; a revoke ends its sessions on both', async () => {
  const url = await postgres.createDatabase('accounts_shared');
  const env = { DATABASE_URL: url, SESSION_SECRET: 'one-secret-for-both-instances-0123456789abcdef' };
  const admin = (...args: string[]) =>
    execFileSync(process.execPath, ['scripts/admin.ts', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, DATA_DIR: join(work, 'cli'), ...env }, encoding: 'utf8' });
  expect(admin('add', 'ops@example.com', '--role', 'admin', '--password', 'long-enough-pw-1')).toContain('in the PostgreSQL database (DATABASE_URL)');
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  try {
    [a, b] = await Promise.all([startTestServer(join(FIXTURES, 'valid'), { ...env, DATA_DIR: join(work, 'a') }), startTestServer(join(FIXTURES, 'valid'), { ...env, DATA_DIR: join(work, 'b') })]);
    const signIn = async (server: TestServer) => {
      const response = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({ email: 'ops@example.com', password: 'long-enough-pw-1' }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return (response.headers.getSetCookie().find((c) => c.startsWith('deals_session=')) as string).split(';')[0] as string;
    };
    const session = async (server: TestServer, cookie: string) => (await fetch(`${server.url}/api/v1/auth/session`, { headers: { Cookie: cookie } })).status;
    const cookieA = await signIn(a);
    const cookieB = await signIn(b);
    // One secret, one database: a session made on A is good on B.
    expect(await session(b, cookieA)).toBe(200);
    expect(admin('revoke', 'ops@example.com')).toContain('signed ops@example.com out everywhere');
    await expect.poll(async () => [await session(a as TestServer, cookieA), await session(b as TestServer, cookieB)], { timeout: 5000, interval: 250 }).toEqual([401, 401]);
    // A new sign-in works again, on either.
    expect(await session(a, await signIn(a))).toBe(200);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  } finally {
    await Promise.all([a?.stop(), b?.stop()]);
  }
});
