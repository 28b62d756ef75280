/**
 * Alert rounds take each member once per interval (functions/members/alerts.ts `runAlertRound`,
 * migration 9), on both engines: a round cut short at its deadline leaves the rest due and the
 * next round takes them, longest waiting first; rounds run at once on several instances sharing
 * PostgreSQL take each member once. The members have nothing saved, so no digest is mailed: what
 * is checked is who is taken. Real databases (a SQLite file, PostgreSQL from Debian).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AccountBook } from '../../functions/auth/accounts.ts';
import { runAlertRound, type AlertDeps } from '../../functions/members/alerts.ts';
import { createLogger } from '../../functions/ops/log.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { loadGeneratedCatalog } from '../../functions/reads/catalog-state.ts';
import { buildGenerated } from '../helpers/build-generated.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { FIXTURES } from '../helpers/server.ts';

const MEMBERS = ['a-member@example.com', 'b-member@example.com', 'c-member@example.com'];
const HOUR = 3600_000;

let work: string;
let postgres: PostgresServer;
let catalog: Catalog;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'deals-alert-rounds-'));
  postgres = await startPostgresServer();
  await buildGenerated(join(FIXTURES, 'valid'), join(work, 'generated'));
  catalog = await loadGeneratedCatalog(join(work, 'generated'));
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
  await rm(work, { recursive: true, force: true });
});

/** A round's dependencies over one accounts database, at a given time. */
function roundDeps(accounts: AccountBook, at: number): AlertDeps {
  return {
    state: () => ({ catalog }),
    clock: () => new Date(at),
    auth: { accounts },
    config: { alertDigestHours: 24, billing: undefined },
    log: createLogger(() => undefined),
  } as unknown as AlertDeps;
}

async function withMembers(open: () => AccountBook): Promise<AccountBook> {
  const accounts = open();
  for (const email of MEMBERS) {
    await accounts.addVerifiedMember(email);
    await accounts.memberData(({ profiles }) => profiles.put(email, { alerts: true }, new Date()), 'Saving a profile');
  }
  return accounts;
}

describe.each([
  ['SQLite', (name: string) => Promise.resolve({ dataDir: join(work, name) })],
  ['PostgreSQL', async (name: string) => ({ dataDir: join(work, name), databaseUrl: await postgres.createDatabase(name) })],
])('%s', (engine, optionsFor) => {
  const open = async (name: string): Promise<() => AccountBook> => {
    const options = await optionsFor(name);
    return () => new AccountBook(options);
  };

  test('a round stopped at its deadline leaves the rest due; the next takes them; within the interval nobody again', async () => {
    const accounts = await withMembers(await open(`deadline_${engine.toLowerCase()}`));
    try {
      const now = Date.now();
      const stopped = await runAlertRound(roundDeps(accounts, now), { deadline: Date.now() - 1 });
      expect(stopped).toEqual({ ran: true, members: 0, mailed: 0, failed: 0, left: 3 });
      expect(await runAlertRound(roundDeps(accounts, now + HOUR))).toEqual({ ran: true, members: 3, mailed: 0, failed: 0, left: 0 });
      expect(await runAlertRound(roundDeps(accounts, now + 2 * HOUR))).toMatchObject({ ran: false, members: 0 });
      // A day after the round that took them, each is due again; an admin's round takes everyone at once.
      expect(await runAlertRound(roundDeps(accounts, now + 26 * HOUR))).toMatchObject({ ran: true, members: 3 });
      expect(await runAlertRound(roundDeps(accounts, now + 27 * HOUR), { force: true })).toMatchObject({ ran: true, members: 3 });
    } finally {
      await accounts.close();
    }
  });

  test('the longest waiting are taken first: a member never taken comes before those taken a day ago', async () => {
    const accounts = await withMembers(await open(`order_${engine.toLowerCase()}`));
    try {
      const now = Date.now();
      await runAlertRound(roundDeps(accounts, now));
      await accounts.addVerifiedMember('z-newcomer@example.com');
      await accounts.memberData(({ profiles }) => profiles.put('z-newcomer@example.com', { alerts: true }, new Date()), 'Saving a profile');
      const due = await accounts.memberData(({ profiles }) => profiles.dueForDigest(new Date(now + 25 * HOUR)));
      expect(due).toEqual(['z-newcomer@example.com', ...MEMBERS]);
    } finally {
      await accounts.close();
    }
  });
});

test('rounds at once on instances sharing PostgreSQL take each member once', async () => {
  const options = { dataDir: join(work, 'shared'), databaseUrl: await postgres.createDatabase('alert_rounds_shared') };
  const first = await withMembers(() => new AccountBook(options));
  const others = [new AccountBook(options), new AccountBook(options)];
  try {
    const now = Date.now();
    const rounds = await Promise.all([first, ...others].map((accounts) => runAlertRound(roundDeps(accounts, now))));
    expect(rounds.reduce((sum, round) => sum + round.members, 0)).toBe(3);
  } finally {
    await Promise.all([first, ...others].map((accounts) => accounts.close()));
  }
});
