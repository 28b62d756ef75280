/**
 * Sign-in by a mailed link with the accounts in PostgreSQL (`DATABASE_URL`): the shared suite
 * (tests/helpers/sign-in-link-cases.ts) over a real server on the Debian PostgreSQL started on
 * 127.0.0.1 for this file, mail through a real SMTP server.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { signInLinkSuite } from '../helpers/sign-in-link-cases.ts';
import { addAccount, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let postgres: PostgresServer;
let databaseUrl: string;
let smtp: Receiver<ReceivedMail>;
let server: WriteServer;
beforeAll(async () => {
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('sign_in_links');
  smtp = await startSmtpReceiver();
  server = await startWriteServer([], { DATABASE_URL: databaseUrl, SMTP_URL: smtp.url, SMTP_FROM: 'Deals <deals@example.com>' });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await postgres?.stop();
});
afterEach(() => {
  expect(takeErrors(server.server)).toEqual([]);
});

signInLinkSuite({ env: () => server, smtp: () => smtp, addAccount: (account) => addAccount(server.dataDir, account, { DATABASE_URL: databaseUrl }) });
