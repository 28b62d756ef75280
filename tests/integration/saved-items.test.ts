/**
 * Members' saved items on the embedded SQLite database (the default): the shared suite
 * (tests/helpers/saved-items-cases.ts) over a real server, plus the join with the catalog as a
 * pure function (a passed expiry date ends a deal before an editor marks it) and what removing
 * an account does to its list.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { databaseFile, openAccountStore } from '../../functions/auth/account-store.ts';
import { openDatabase } from '../../functions/db/database.ts';
import { savedItemViews } from '../../src/catalog/saved-items.ts';
import { localPath } from '../../src/local-path.ts';
import type { Deal } from '../../src/schemas/deal.ts';
import { savedItemsSuite } from '../helpers/saved-items-cases.ts';
import { addAccount, ADMIN, MEMBER, useWriteServer, type WriteServer } from '../helpers/writes-harness.ts';

let server: WriteServer;
useWriteServer([ADMIN, MEMBER], (started) => {
  server = started;
});

savedItemsSuite({
  env: () => server,
  addAccount: (account) => addAccount(server.dataDir, account),
  database: () => openDatabase({ file: databaseFile(server.dataDir) }),
});

describe('the join with the catalog', () => {
  const deal = (patch: Partial<Deal>) => ({ id: 'd-abc00001', slug: 'abc', title: 'Abc', status: 'active', ...patch }) as Deal;
  const ref = { kind: 'deal' as const, recordId: 'd-abc00001', title: 'Old title', slug: 'old', savedAt: '2026-01-01T00:00:00.000Z' };
  const view = (d: Deal | undefined, today: string) => savedItemViews([ref], { dealById: new Map(d ? [[d.id, d]] : []), startupById: new Map() }, today)[0];

  test('a deal whose expiry date has passed is expired, on the day after it; the day itself is live', () => {
    expect(view(deal({ expiryDate: '2026-05-01' }), '2026-05-01')?.state).toBe('live');
    expect(view(deal({ expiryDate: '2026-05-01' }), '2026-05-02')?.state).toBe('expired');
    expect(view(deal({ status: 'expired' }), '2026-05-02')?.state).toBe('expired');
  });

  test('a record gone from the catalog is removed, named as it was saved', () => {
    expect(view(undefined, '2026-05-02')).toEqual({ kind: 'deal', id: 'd-abc00001', savedAt: ref.savedAt, state: 'removed', title: 'Old title', slug: 'old' });
  });

  test('only a path of this site is a `next`', () => {
    expect(localPath('/deals/?q=a#x')).toBe('/deals/?q=a');
    for (const unsafe of ['//evil.example', '/\\evil.example', 'https://evil.example/', ' /x', '/x\n', 'x']) expect(localPath(unsafe), unsafe).toBeUndefined();
  });
});

test("removing an account removes its saved items and profile (the database's cascade)", async () => {
  const store = await openAccountStore({ dataDir: join(server.dataDir, 'cascade') });
  try {
    await store.put({ email: 'gone@example.com', role: 'member' });
    await store.profiles.put('gone@example.com', { stage: 'seed', alerts: true }, new Date());
    expect(await store.savedItems.add('gone@example.com', { kind: 'deal', recordId: 'd-abc00001', title: 'Abc', slug: 'abc' }, { state: 'live' }, new Date())).toBe('added');
    expect(await store.savedItems.add('gone@example.com', { kind: 'deal', recordId: 'd-abc00001', title: 'Abc 2', slug: 'abc' }, { state: 'live' }, new Date())).toBe('kept');
    expect((await store.savedItems.list('gone@example.com'))[0]?.title).toBe('Abc 2');
    await store.remove('gone@example.com');
    await store.put({ email: 'gone@example.com', role: 'member' });
    expect(await store.savedItems.list('gone@example.com')).toEqual([]);
    expect(await store.profiles.get('gone@example.com')).toEqual({ alerts: false });
  } finally {
    await store.close();
  }
});
