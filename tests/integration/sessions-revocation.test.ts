/**
 * Sessions end when they should (SECURITY.md "admin powers"), on the real server with real
 * local accounts: sign-out revokes the very cookie it was sent with, sign-out everywhere and
 * every account change (password, role, removal, re-adding, `npm run admin -- revoke`) end
 * every earlier session, and a signed cookie alone is never enough after that.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { addAccount, call, callFrom, expectError, login, PROJECT_ROOT, useWriteServer, type TestAccount, type WriteServer } from '../helpers/writes-harness.ts';

const account = (name: string, role: 'admin' | 'member' = 'admin'): TestAccount => ({ email: `${name}@example.com`, role, password: `${name}-password-9` });
const SIGNER = account('signer');
const EVERYWHERE = account('everywhere');
const FORM_EVERYWHERE = account('formeverywhere');
const ROTATOR = account('rotator');
const PROMOTED = account('promoted');
const RETURNER = account('returner');
const REVOKED = account('revoked');

let env: WriteServer;
useWriteServer([SIGNER, EVERYWHERE, FORM_EVERYWHERE, ROTATOR, PROMOTED, RETURNER, REVOKED], (started) => {
  env = started;
});

// Each check comes from an address of its own, so polling never meets the per-address rate limit.
let nextAddress = 10;
const from = () => `127.0.9.${nextAddress++}`;
const session = (cookie: string) => callFrom(from(), env.url, 'GET', '/api/v1/auth/session', { cookie });
const write = (cookie: string) => callFrom(from(), env.url, 'PUT', '/api/v1/deals', { cookie, body: { slug: 'aws-activate', value: 'Session test value' } });

/** The account file is re-read within about two seconds of a change by the CLI: poll until the session ends. */
async function expectEnds(cookie: string): Promise<void> {
  const deadline = Date.now() + 5000;
  let status = 200;
  while (Date.now() < deadline) {
    status = (await session(cookie)).status;
    if (status === 401) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(status).toBe(401);
  expectError(await write(cookie), 401, 'unauthorized');
}

function admin(...args: string[]): void {
  execFileSync(process.execPath, ['scripts/admin.ts', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, DATA_DIR: env.dataDir }, stdio: 'pipe' });
}

describe('sign-out', () => {
  test('the cookie a sign-out was sent with no longer works, even replayed; another session of the account still does', async () => {
    const signedOut = await login(env.url, SIGNER);
    const other = await login(env.url, SIGNER);
    expect((await call(env.url, 'POST', '/api/v1/auth/logout', { cookie: signedOut })).status).toBe(200);
    expectError(await session(signedOut), 401, 'unauthorized');
    expectError(await write(signedOut), 401, 'unauthorized');
    expect((await session(other)).status).toBe(200);
  });

  test('sign-out everywhere ({"everywhere": true}) ends every session of the account at once', async () => {
    const first = await login(env.url, EVERYWHERE);
    const second = await login(env.url, EVERYWHERE);
    expect((await call(env.url, 'POST', '/api/v1/auth/logout', { cookie: first, body: { everywhere: true } })).status).toBe(200);
    expectError(await session(second), 401, 'unauthorized');
    expectError(await write(second), 401, 'unauthorized');
    // Signing in again works, with a session of the new generation.
    expect((await session(await login(env.url, EVERYWHERE))).status).toBe(200);
  });

  test('the admin pages\' "Sign out everywhere" form button (everywhere=true, a form field read as the boolean) does the same', async () => {
    const first = await login(env.url, FORM_EVERYWHERE);
    const second = await login(env.url, FORM_EVERYWHERE);
    const answer = await call(env.url, 'POST', '/api/v1/auth/logout', { cookie: first, rawBody: 'everywhere=true', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/login?signed-out=1');
    expectError(await session(second), 401, 'unauthorized');
  });
});

describe('account changes end earlier sessions', () => {
  test('a password change (npm run admin -- add with a new password)', async () => {
    const cookie = await login(env.url, ROTATOR);
    admin('add', ROTATOR.email, '--role', 'admin', '--password', 'a-brand-new-password');
    await expectEnds(cookie);
  });

  test('a role change', async () => {
    const cookie = await login(env.url, PROMOTED);
    admin('add', PROMOTED.email, '--role', 'member', '--password', PROMOTED.password);
    await expectEnds(cookie);
  });

  test('removing and re-adding the account does not revive old cookies', async () => {
    const cookie = await login(env.url, RETURNER);
    admin('remove', RETURNER.email);
    await expectEnds(cookie);
    addAccount(env.dataDir, RETURNER);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expectError(await session(cookie), 401, 'unauthorized');
    expect((await session(await login(env.url, RETURNER))).status).toBe(200);
  });

  test('npm run admin -- revoke signs the account out everywhere', async () => {
    const cookie = await login(env.url, REVOKED);
    admin('revoke', REVOKED.email);
    await expectEnds(cookie);
  });
});
