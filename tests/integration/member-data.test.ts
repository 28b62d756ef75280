/**
 * A member's data export and account deletion on the embedded SQLite database (the default):
 * the shared suite (tests/helpers/member-data-cases.ts) over a real server, with a real OpenID
 * Connect provider for the account without a password.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { databaseFile } from '../../functions/auth/account-store.ts';
import { OIDC_CALLBACK_PATH } from '../../functions/auth/oidc-login.ts';
import { openDatabase } from '../../functions/db/database.ts';
import { memberDataSuite, providerSettings, SSO_USERS } from '../helpers/member-data-cases.ts';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.ts';
import { addAccount, ADMIN, startWriteServer, takeErrors, type WriteServer } from '../helpers/writes-harness.ts';

let provider: TestProvider;
let server: WriteServer;
beforeAll(async () => {
  provider = await startOidcProvider(SSO_USERS);
  server = await startWriteServer([ADMIN], providerSettings(provider));
  provider.allowRedirect(`${server.url}${OIDC_CALLBACK_PATH}`);
});
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});
afterEach(() => {
  if (server) expect(takeErrors(server.server)).toEqual([]);
});

memberDataSuite({
  env: () => server,
  provider: () => provider,
  addAccount: (account) => addAccount(server.dataDir, account),
  database: () => openDatabase({ file: databaseFile(server.dataDir) }),
});
