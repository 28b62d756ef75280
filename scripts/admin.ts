/**
 * `npm run admin -- add <email> --role admin|member [--password <pw> | --sso]`, `remove <email>`,
 * `revoke <email>` (sign out everywhere), `list`: manage the accounts of the sign-in. Every add
 * (a new account, a new password or role, a re-added one) and every revoke gives the account a
 * new session generation, which ends all its existing sessions. Without --password (or
 * ADMIN_PASSWORD) the password is asked for on the terminal, or generated and printed once when there is none. `--sso` adds an
 * account with no password, which signs in only through the OpenID Connect provider. Accounts
 * live in the service's database: PostgreSQL with DATABASE_URL, else SQLite in DATA_DIR.
 */
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { settings } from './_settings.ts';
import { openAccountStore } from '../functions/auth/account-store.ts';
import { hashPassword } from '../functions/auth/passwords.ts';
import { normalizeEmail, ROLES, type Role } from '../functions/auth/users.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { role: { type: 'string', default: 'member' }, password: { type: 'string' }, sso: { type: 'boolean', default: false } },
});
const [command, emailArg] = positionals;
const { dataDir, databaseUrl } = settings();
const store = await openAccountStore({ dataDir, databaseUrl });
const file = store.where;

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};
const accounts = await store.list();

if (command === 'list') {
  for (const account of accounts) console.log(`${account.email}\t${account.role}${account.passwordHash ? '' : '\tsso only'}`);
  if (accounts.length === 0) console.log(`no accounts in ${file}`);
} else if (command === 'add') {
  const email = normalizeEmail(emailArg ?? '');
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) fail('usage: npm run admin -- add <email> --role admin|member [--password <pw> | --sso]');
  const role = values.role as Role;
  if (!ROLES.includes(role)) fail(`--role must be one of ${ROLES.join(', ')}`);
  const verb = accounts.some((a) => a.email === email) ? 'updated' : 'added';
  if (values.sso) {
    await store.put({ email, role });
    console.log(`${verb} ${email} (${role}, signs in through the OpenID Connect provider only) in ${file}`);
    await store.close();
    process.exit(0);
  }
  let password = values.password ?? process.env.ADMIN_PASSWORD ?? (await ask(`password for ${email} (empty: generate one): `));
  if (!password) {
    password = randomBytes(12).toString('base64url');
    console.log(`generated password for ${email}: ${password}`);
  }
  if (password.length < 8) fail('the password needs at least 8 characters');
  await store.put({ email, role, passwordHash: await hashPassword(password) });
  console.log(`${verb} ${email} (${role}) in ${file}`);
} else if (command === 'remove') {
  const email = normalizeEmail(emailArg ?? '');
  // Everything stored about the account goes with it (functions/members/member-data.ts), as when a member deletes theirs.
  if (!(await store.memberData.erase(email, dataDir)).erased) fail(`no account ${email}`);
  console.log(`removed ${email} and everything stored about it`);
} else if (command === 'revoke') {
  const email = normalizeEmail(emailArg ?? '');
  if (!(await store.renewGeneration(email))) fail(`no account ${email}`);
  console.log(`signed ${email} out everywhere (its existing sessions no longer work)`);
} else {
  await store.close();
  fail('usage: npm run admin -- add <email> --role admin|member [--password <pw> | --sso] | remove <email> | revoke <email> | list');
}
await store.close();

// --- internal ---

async function ask(question: string): Promise<string> {
  if (!process.stdin.isTTY) return '';
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await prompt.question(question)).trim();
  } finally {
    prompt.close();
  }
}
