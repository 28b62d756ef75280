/**
 * The member's dashboard and alerts in PostgreSQL (`DATABASE_URL`): the shared suite
 * (tests/helpers/dashboard-cases.ts) over a real server on the Debian PostgreSQL started on
 * 127.0.0.1 for this file, with mail to a real SMTP server process.
 */
import { afterAll, beforeAll } from 'vitest';
import { dashboardSuite } from '../helpers/dashboard-cases.ts';
import { startSmtpReceiver, type ReceivedMail, type Receiver } from '../helpers/notify-receivers.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { addAccount, ADMIN, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let postgres: PostgresServer;
let databaseUrl: string;
let smtp: Receiver<ReceivedMail>;
let server: WriteServer;
beforeAll(async () => {
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('dashboard');
  smtp = await startSmtpReceiver();
  server = await startWriteServer([], { DATABASE_URL: databaseUrl, ALERT_DIGEST_HOURS: '0', SMTP_URL: smtp.url, SMTP_FROM: 'Deals <deals@example.com>' });
  addAccount(server.dataDir, ADMIN, { DATABASE_URL: databaseUrl });
}, 90_000);
afterAll(async () => {
  const errors = server ? takeErrors(server.server) : [];
  await server?.stop();
  await smtp?.close();
  await postgres?.stop();
  if (errors.length > 0) throw new Error(`the server logged errors: ${errors.join('\n')}`);
});

dashboardSuite({ env: () => server, smtp: () => smtp, addAccount: (account) => addAccount(server.dataDir, account, { DATABASE_URL: databaseUrl }) });
