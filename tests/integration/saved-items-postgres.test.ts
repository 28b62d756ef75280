/**
 * Members' saved items in PostgreSQL (`DATABASE_URL`): the shared suite
 * (tests/helpers/saved-items-cases.ts) over a real server on the Debian PostgreSQL started on
 * 127.0.0.1 for this file.
 */
import { afterAll, beforeAll } from 'vitest';
import { openDatabase } from '../../functions/db/database.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { savedItemsSuite } from '../helpers/saved-items-cases.ts';
import { addAccount, ADMIN, MEMBER, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let postgres: PostgresServer;
let databaseUrl: string;
let server: WriteServer;
beforeAll(async () => {
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('saved_items');
  server = await startWriteServer([], { DATABASE_URL: databaseUrl });
  for (const account of [ADMIN, MEMBER]) addAccount(server.dataDir, account, { DATABASE_URL: databaseUrl });
}, 90_000);
afterAll(async () => {
  if (server) expectNoErrors(server);
  await server?.stop();
  await postgres?.stop();
});

function expectNoErrors(running: WriteServer): void {
  const errors = takeErrors(running.server);
  if (errors.length > 0) throw new Error(`the server logged errors: ${errors.join('\n')}`);
}

savedItemsSuite({
  env: () => server,
  addAccount: (account) => addAccount(server.dataDir, account, { DATABASE_URL: databaseUrl }),
  database: () => openDatabase({ url: databaseUrl }),
});
