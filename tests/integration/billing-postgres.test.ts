/**
 * Paid plans in PostgreSQL (`DATABASE_URL`): the shared suite (tests/helpers/billing-cases.ts)
 * over a real server on the Debian PostgreSQL started on 127.0.0.1 for this file, pointed at a
 * recording server in place of Stripe's API.
 */
import { afterAll, beforeAll } from 'vitest';
import { openDatabase } from '../../functions/db/database.ts';
import { billingSuite } from '../helpers/billing-cases.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { billingEnv } from '../helpers/stripe-events.ts';
import { startStripeRecorder, type StripeRecorder } from '../helpers/stripe-recorder.ts';
import { addAccount, ADMIN, MEMBER, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let postgres: PostgresServer;
let databaseUrl: string;
let recorder: StripeRecorder;
let server: WriteServer;
beforeAll(async () => {
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('billing');
  recorder = await startStripeRecorder();
  server = await startWriteServer([], { DATABASE_URL: databaseUrl, ...billingEnv(recorder.url) });
  for (const account of [ADMIN, MEMBER]) addAccount(server.dataDir, account, { DATABASE_URL: databaseUrl });
}, 90_000);
afterAll(async () => {
  const errors = server ? takeErrors(server.server) : [];
  await server?.stop();
  await recorder?.stop();
  await postgres?.stop();
  if (errors.length > 0) throw new Error(`the server logged errors: ${errors.join('\n')}`);
});

billingSuite({
  env: () => server,
  addAccount: (account) => addAccount(server.dataDir, account, { DATABASE_URL: databaseUrl }),
  database: () => openDatabase({ url: databaseUrl }),
  recorder: () => recorder,
});
