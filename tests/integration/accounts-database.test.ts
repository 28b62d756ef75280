/**
 * Accounts in the embedded SQLite database (functions/auth/account-store.ts, functions/db/):
 * what the store keeps and changes, the one-time move of an earlier version's `users.json`
 * (generations kept, the file renamed, nothing doubled on the next start), a bundled database
 * read read-only (a serverless function), and a server started on an old data folder whose
 * admin still signs in. Real files in a temporary folder; the real CLI; a real HTTP server.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { databaseFile, legacyAccountsFile, openAccountStore } from '../../functions/auth/account-store.ts';
import { hashPassword } from '../../functions/auth/passwords.ts';
import { AccountBook } from '../../functions/auth/accounts.ts';
import { sweepSignUps, type SignUpSweepDeps } from '../../functions/auth/sign-up-sweep.ts';
import { createLogger } from '../../functions/ops/log.ts';
import { MIGRATIONS } from '../../functions/db/migrations.ts';
import { FIXTURES, startTestServer } from '../helpers/server.ts';
import { PROJECT_ROOT } from '../helpers/writes-harness.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'deals-accounts-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const admin = (...args: string[]): string => execFileSync(process.execPath, ['scripts/admin.ts', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });

describe('the account store on SQLite', () => {
  test('a fresh data folder gets the database, its schema at the latest migration', async () => {
    const store = await openAccountStore({ dataDir });
    await store.close();
    expect((await stat(databaseFile(dataDir))).mode & 0o777).toBe(0o600);
    const db = new DatabaseSync(databaseFile(dataDir), { readOnly: true });
    expect(db.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: MIGRATIONS.length });
    db.close();
    // Opened again: nothing applied twice.
    await (await openAccountStore({ dataDir })).close();
  });

  test('put, find, list, renew, remove; a put over an account replaces it with a new generation', async () => {
    const store = await openAccountStore({ dataDir });
    try {
      expect(await store.put({ email: ' Ada@Example.com ', role: 'admin', passwordHash: 'h1' })).toBe(true);
      const first = await store.find('ada@example.com');
      expect(first).toMatchObject({ email: 'ada@example.com', role: 'admin', passwordHash: 'h1' });
      expect(first?.generation).toMatch(/^[\w-]{16}$/);
      expect(await store.put({ email: 'ada@example.com', role: 'member' })).toBe(false);
      const second = await store.find('ADA@example.com');
      expect(second).toEqual({ email: 'ada@example.com', role: 'member', generation: second?.generation, emailVerifiedAt: expect.any(String) });
      expect(second?.generation).not.toBe(first?.generation);
      expect(await store.renewGeneration('ada@example.com')).toBe(true);
      expect((await store.find('ada@example.com'))?.generation).not.toBe(second?.generation);
      expect(await store.renewGeneration('nobody@example.com')).toBe(false);
      await store.put({ email: 'bob@example.com', role: 'member', passwordHash: 'h2' });
      expect((await store.list()).map((a) => a.email)).toEqual(['ada@example.com', 'bob@example.com']);
      expect(await store.remove('ada@example.com')).toBe(true);
      expect(await store.remove('ada@example.com')).toBe(false);
      expect(await store.find('ada@example.com')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  test('sign-up: unconfirmed until marked with the current generation; a newer sign-up owns an unconfirmed address; a confirmed one is left alone', async () => {
    const store = await openAccountStore({ dataDir });
    try {
      const first = await store.addMember('Mel@Example.com', 'h1');
      expect(first).toMatchObject({ email: 'mel@example.com', role: 'member', passwordHash: 'h1' });
      expect(first?.emailVerifiedAt).toBeUndefined();
      // Someone signs up with the address again before it is confirmed: their password, a new generation (the first link dies).
      const second = await store.addMember('mel@example.com', 'h2');
      expect(second).toMatchObject({ passwordHash: 'h2' });
      expect(second?.generation).not.toBe(first?.generation);
      expect(await store.markVerified('mel@example.com', first?.generation as string)).toBe(false);
      expect(await store.markVerified('mel@example.com', second?.generation as string)).toBe(true);
      const verified = (await store.find('mel@example.com'))?.emailVerifiedAt;
      expect(verified).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // Confirmed: a sign-up changes nothing.
      expect(await store.addMember('mel@example.com', 'h3')).toBeUndefined();
      expect(await store.find('mel@example.com')).toMatchObject({ passwordHash: 'h2', emailVerifiedAt: verified });
    } finally {
      await store.close();
    }
  });

  test('a reset changes the password only with the generation its link was made for, once', async () => {
    const store = await openAccountStore({ dataDir });
    try {
      const account = await store.addMember('new@example.com', 'h1');
      const gen = account?.generation as string;
      expect(await store.setPassword('new@example.com', 'h2', gen)).toBe(true);
      expect(await store.setPassword('new@example.com', 'h3', gen)).toBe(false);
      expect(await store.find('new@example.com')).toMatchObject({ passwordHash: 'h2', emailVerifiedAt: expect.any(String) });
      expect(await store.setPassword('nobody@example.com', 'h5', gen)).toBe(false);
    } finally {
      await store.close();
    }
  });

  test('unconfirmed sign-ups older than 48 hours are removed by the next sign-up; confirmed accounts stay', async () => {
    const store = await openAccountStore({ dataDir });
    try {
      const long = Date.now() - 49 * 3600 * 1000;
      await store.addMember('stale@example.com', 'h1', long);
      await store.addMember('kept@example.com', 'h2', long);
      await store.markVerified('kept@example.com', (await store.find('kept@example.com'))?.generation as string);
      await store.addMember('fresh@example.com', 'h3');
      expect((await store.list()).map((a) => a.email)).toEqual(['fresh@example.com', 'kept@example.com']);
    } finally {
      await store.close();
    }
  });

  test("the server's hourly sweep removes unconfirmed sign-ups past 48 hours without waiting for a sign-up, and logs how many", async () => {
    const store = await openAccountStore({ dataDir });
    try {
      await store.addMember('stale@example.com', 'h1', Date.now() - 49 * 3600 * 1000);
      await store.addMember('young@example.com', 'h2', Date.now() - 47 * 3600 * 1000);
    } finally {
      await store.close();
    }
    const lines: string[] = [];
    const accounts = new AccountBook({ dataDir });
    const deps = { auth: { accounts }, clock: () => new Date(), log: createLogger((line) => lines.push(line)) } as unknown as SignUpSweepDeps;
    try {
      expect(await sweepSignUps(deps)).toBe(1);
      expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([expect.objectContaining({ level: 'info', event: 'stale_signups_removed', count: 1 })]);
      expect(await sweepSignUps(deps)).toBe(0);
      // A day later the other one's time is over too.
      expect(await sweepSignUps({ ...deps, clock: () => new Date(Date.now() + 24 * 3600 * 1000) })).toBe(1);
    } finally {
      await accounts.close();
    }
    const left = await openAccountStore({ dataDir });
    try {
      expect(await left.list()).toEqual([]);
    } finally {
      await left.close();
    }
  });

  test('an identity-provider sign-in claims an unconfirmed address: the password someone chose is dropped', async () => {
    const store = await openAccountStore({ dataDir });
    try {
      const planted = await store.addMember('victim@example.com', 'attackers-hash');
      expect(await store.claimUnconfirmed('victim@example.com')).toBe(true);
      const claimed = await store.find('victim@example.com');
      expect(claimed?.passwordHash).toBeUndefined();
      expect(claimed?.emailVerifiedAt).toEqual(expect.any(String));
      expect(claimed?.generation).not.toBe(planted?.generation);
      expect(await store.claimUnconfirmed('victim@example.com')).toBe(false);
    } finally {
      await store.close();
    }
  });

  test('npm run admin adds, lists, revokes and removes accounts in the database', () => {
    expect(admin('add', 'ops@example.com', '--role', 'admin', '--password', 'long-enough-1')).toContain('added ops@example.com (admin) in the SQLite database in DATA_DIR');
    expect(admin('add', 'sso@example.com', '--role', 'member', '--sso')).toContain('added sso@example.com (member, signs in through the OpenID Connect provider only)');
    expect(admin('list')).toBe('ops@example.com\tadmin\nsso@example.com\tmember\tsso only\n');
    expect(admin('revoke', 'ops@example.com')).toContain('signed ops@example.com out everywhere');
    expect(admin('remove', 'sso@example.com')).toBe('removed sso@example.com and everything stored about it\n');
    expect(() => admin('remove', 'sso@example.com')).toThrow(/no account sso@example.com/);
    expect(admin('list')).toBe('ops@example.com\tadmin\n');
  });
});

describe("an earlier version's users.json", () => {
  const legacy = async () => ({
    accounts: [
      { email: 'ada@example.com', role: 'admin', passwordHash: await hashPassword('correct-horse-1'), generation: 'gen-ada-0001' },
      // Written before generations existed.
      { email: 'old@example.com', role: 'member', passwordHash: await hashPassword('battery-staple-2') },
    ],
  });

  test('is moved into the database once, generations kept (nobody is signed out), and renamed as a backup', async () => {
    const file = legacyAccountsFile(dataDir);
    const text = `${JSON.stringify(await legacy(), null, 2)}\n`;
    await writeFile(file, text);
    const store = await openAccountStore({ dataDir });
    try {
      expect(await store.list()).toEqual([
        // Accounts an operator made count as confirmed.
        { email: 'ada@example.com', role: 'admin', passwordHash: expect.stringMatching(/^scrypt/), generation: 'gen-ada-0001', emailVerifiedAt: expect.any(String) },
        { email: 'old@example.com', role: 'member', passwordHash: expect.stringMatching(/^scrypt/), generation: '', emailVerifiedAt: expect.any(String) },
      ]);
    } finally {
      await store.close();
    }
    expect(existsSync(file)).toBe(false);
    expect(await readFile(`${file}.moved-to-database`, 'utf8')).toBe(text);
    // Moved once: a file put back later (a backup restored, another instance's copy) is not read again, so removed accounts stay removed.
    const store2 = await openAccountStore({ dataDir });
    await store2.remove('old@example.com');
    await store2.close();
    await writeFile(file, text);
    const again = await openAccountStore({ dataDir });
    expect((await again.list()).map((a) => a.email)).toEqual(['ada@example.com']);
    await again.close();
  });

  test('a server started on an old data folder moves it at start, and its admin signs in with the old password', async () => {
    await writeFile(legacyAccountsFile(dataDir), JSON.stringify(await legacy()));
    const server = await startTestServer(join(FIXTURES, 'valid'), { DATA_DIR: dataDir });
    try {
      expect(existsSync(legacyAccountsFile(dataDir))).toBe(false);
      const response = await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({ email: 'ada@example.com', password: 'correct-horse-1' }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await response.json()).toMatchObject({ user: { email: 'ada@example.com', role: 'admin' } });
    } finally {
      await server.stop();
    }
  });
});

describe('read-only (a serverless function without DATABASE_URL)', () => {
  test('a bundled database is read and never written', async () => {
    admin('add', 'ops@example.com', '--role', 'admin', '--password', 'long-enough-1');
    const before = await readFile(databaseFile(dataDir));
    const store = await openAccountStore({ dataDir, readOnly: true });
    try {
      expect((await store.find('ops@example.com'))?.role).toBe('admin');
      await expect(store.renewGeneration('ops@example.com')).rejects.toThrow(/readonly/i);
    } finally {
      await store.close();
    }
    expect((await readFile(databaseFile(dataDir))).equals(before)).toBe(true);
  });

  test('without a bundled database, a bundled users.json is read (and left where it is)', async () => {
    await writeFile(legacyAccountsFile(dataDir), JSON.stringify({ accounts: [{ email: 'ada@example.com', role: 'admin', passwordHash: 'scrypt$x', generation: 'g1' }] }));
    const store = await openAccountStore({ dataDir, readOnly: true });
    try {
      expect(await store.find('ada@example.com')).toEqual({ email: 'ada@example.com', role: 'admin', passwordHash: 'scrypt$x', generation: 'g1', emailVerifiedAt: expect.any(String) });
    } finally {
      await store.close();
    }
    expect(existsSync(legacyAccountsFile(dataDir))).toBe(true);
    expect(existsSync(databaseFile(dataDir))).toBe(false);
  });
});
