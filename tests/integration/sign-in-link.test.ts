/**
 * Sign-in by a mailed link on the embedded SQLite database (the default): the shared suite
 * (tests/helpers/sign-in-link-cases.ts) over a real server sending mail to a real SMTP server on
 * 127.0.0.1, plus the one-use record in the database itself (swept once a link has expired).
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { openAccountStore } from '../../functions/auth/account-store.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { signInLinkSuite } from '../helpers/sign-in-link-cases.ts';
import { addAccount, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let smtp: Receiver<ReceivedMail>;
let server: WriteServer;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startWriteServer([], { SMTP_URL: smtp.url, SMTP_FROM: 'Deals <deals@example.com>' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});
afterEach(() => {
  expect(takeErrors(server.server)).toEqual([]);
});

signInLinkSuite({ env: () => server, smtp: () => smtp, addAccount: (account) => addAccount(server.dataDir, account) });

test('the store: a nonce is spent once, only for a member with the generation the link was made for; spent nonces are swept once expired', async () => {
  const store = await openAccountStore({ dataDir: join(server.dataDir, 'store') });
  try {
    await store.put({ email: 'one@example.com', role: 'member', passwordHash: 'x' });
    await store.put({ email: 'editor@example.com', role: 'admin', passwordHash: 'x' });
    const member = await store.find('one@example.com');
    const editor = await store.find('editor@example.com');
    const now = Date.parse('2026-06-01T12:00:00Z');
    const link = { email: 'one@example.com', gen: member?.generation as string, nonce: 'n1', expiresAtMs: now + 60_000 };
    expect((await store.useSignInLink(link, now))?.email).toBe('one@example.com');
    expect(await store.useSignInLink(link, now)).toBeUndefined();
    expect(await store.useSignInLink({ ...link, nonce: 'n2', gen: 'an older generation' }, now)).toBeUndefined();
    expect(await store.useSignInLink({ ...link, nonce: 'n3', email: 'editor@example.com', gen: editor?.generation as string }, now)).toBeUndefined();
    // Two minutes on, n1's link has expired: its record goes, and the link itself is refused by its own expiry.
    await store.useSignInLink({ ...link, nonce: 'n4' }, now + 120_000);
    const db = (store as unknown as { db: { all: <T>(sql: string) => Promise<T[]> } }).db;
    expect((await db.all<{ nonce: string }>('SELECT nonce FROM used_links ORDER BY nonce')).map((r) => r.nonce)).toEqual(['n4']);
  } finally {
    await store.close();
  }
});
