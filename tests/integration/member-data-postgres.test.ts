/**
 * A member's data export and account deletion in PostgreSQL (`DATABASE_URL`): the shared suite
 * (tests/helpers/member-data-cases.ts) over a real server on the Debian PostgreSQL started on
 * 127.0.0.1 for this file, with a real OpenID Connect provider.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { OIDC_CALLBACK_PATH } from '../../functions/auth/oidc-login.ts';
import { openDatabase } from '../../functions/db/database.ts';
import { memberDataSuite, providerSettings, SSO_USERS } from '../helpers/member-data-cases.ts';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { addAccount, ADMIN, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let postgres: PostgresServer;
let databaseUrl: string;
let provider: TestProvider;
let server: WriteServer;
beforeAll(async () => {
  postgres = await startPostgresServer();
  databaseUrl = await postgres.createDatabase('member_data');
  provider = await startOidcProvider(SSO_USERS);
  server = await startWriteServer([], { DATABASE_URL: databaseUrl, ...providerSettings(provider) });
  provider.allowRedirect(`${server.url}${OIDC_CALLBACK_PATH}`);
  addAccount(server.dataDir, ADMIN, { DATABASE_URL: databaseUrl });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
  await postgres?.stop();
});
afterEach(() => {
  if (server) expect(takeErrors(server.server)).toEqual([]);
});

memberDataSuite({
  env: () => server,
  provider: () => provider,
  addAccount: (account) => addAccount(server.dataDir, account, { DATABASE_URL: databaseUrl }),
  database: () => openDatabase({ url: databaseUrl }),
});
