/**
 * Accounts (admins and members) in the service's database (functions/db/): e-mail, role, scrypt
 * hash, session generation. `openAccountStore` picks the engine (PostgreSQL with `DATABASE_URL`,
 * else SQLite in `DATA_DIR`), brings the schema up to date, and moves a `users.json` written by
 * earlier versions into the database once (the file is kept, renamed, as a backup).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCKS, openDatabase, type Database, type Queries } from '../db/database.ts';
import { migrate } from '../db/migrations.ts';
import { newGeneration, normalizeEmail, readAccounts, type Account, type Role } from './users.ts';

/** The embedded database's file in `DATA_DIR`. */
export const databaseFile = (dataDir: string): string => join(dataDir, 'database.sqlite');
/** Where accounts were kept before the database (read once, then renamed). */
export const legacyAccountsFile = (dataDir: string): string => join(dataDir, 'users.json');

interface AccountRow {
  email: string;
  role: Role;
  password_hash: string | null;
  generation: string;
  email_verified_at: string | null;
}

const COLUMNS = 'email, role, password_hash, generation, email_verified_at';

export class AccountStore {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** Where the accounts are, in words (for the CLI). */
  get where(): string {
    return this.db.engine === 'postgres' ? 'the PostgreSQL database (DATABASE_URL)' : 'the SQLite database in DATA_DIR';
  }

  async list(): Promise<Account[]> {
    return (await this.db.all<AccountRow>(`SELECT ${COLUMNS} FROM accounts ORDER BY email`)).map(fromRow);
  }

  async find(email: string): Promise<Account | undefined> {
    const [row] = await this.db.all<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE email = $1`, [normalizeEmail(email)]);
    return row && fromRow(row);
  }

  /**
   * Add the account, or replace the one with its e-mail (an operator's `npm run admin`; its
   * address counts as confirmed); always with a new session generation, so a re-added account
   * or a new password or role ends every earlier session.
   * @returns whether it was new
   */
  put(account: { email: string; role: Role; passwordHash?: string }): Promise<boolean> {
    const email = normalizeEmail(account.email);
    return this.db.transaction(LOCKS.accounts, async (tx) => {
      const existed = (await tx.run('DELETE FROM accounts WHERE email = $1', [email])) > 0;
      await insert(tx, { email, role: account.role, passwordHash: account.passwordHash, generation: newGeneration(), verified: true });
      return !existed;
    });
  }

  /** A member who signed up, not yet confirmed; nothing changes when the e-mail has an account. @returns whether it was made */
  async addMember(email: string, passwordHash: string): Promise<boolean> {
    return (await insert(this.db, { email, role: 'member', passwordHash, generation: newGeneration(), verified: false })) > 0;
  }

  /** The owner of the address confirmed it (the confirmation link). @returns whether there was such an account */
  async markVerified(email: string): Promise<boolean> {
    return (await this.db.run('UPDATE accounts SET email_verified_at = coalesce(email_verified_at, $1) WHERE email = $2', [new Date().toISOString(), normalizeEmail(email)])) > 0;
  }

  /**
   * A new password (a reset through an e-mailed link, which also confirms the address) and a new
   * generation: every session and every other reset link of the account ends.
   * @returns whether there was such an account
   */
  async setPassword(email: string, passwordHash: string): Promise<boolean> {
    const now = new Date().toISOString();
    return (
      (await this.db.run('UPDATE accounts SET password_hash = $1, generation = $2, email_verified_at = coalesce(email_verified_at, $3) WHERE email = $4', [
        passwordHash,
        newGeneration(),
        now,
        normalizeEmail(email),
      ])) > 0
    );
  }

  /** @returns whether there was such an account */
  async remove(email: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM accounts WHERE email = $1', [normalizeEmail(email)])) > 0;
  }

  /** Sign the account out everywhere: a new generation voids every session it had. @returns whether there was such an account */
  async renewGeneration(email: string): Promise<boolean> {
    return (await this.db.run('UPDATE accounts SET generation = $1 WHERE email = $2', [newGeneration(), normalizeEmail(email)])) > 0;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/**
 * The account store of this deployment. `readOnly` (a serverless function without
 * `DATABASE_URL`): the database file bundled in `DATA_DIR` is only read; without one, a bundled
 * `users.json` is read into memory instead.
 * @example const accounts = await openAccountStore({ dataDir: '.data' })
 */
export async function openAccountStore(options: { dataDir: string; databaseUrl?: string; readOnly?: boolean }): Promise<AccountStore> {
  const { dataDir, databaseUrl, readOnly = false } = options;
  if (readOnly && !databaseUrl) {
    if (existsSync(databaseFile(dataDir))) return new AccountStore(openDatabase({ file: databaseFile(dataDir), readOnly: true }));
    const memory = openDatabase({ file: ':memory:' });
    await migrate(memory);
    await importAccounts(memory, await readAccounts(legacyAccountsFile(dataDir)));
    return new AccountStore(memory);
  }
  if (!databaseUrl) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const db = databaseUrl ? openDatabase({ url: databaseUrl }) : openDatabase({ file: databaseFile(dataDir) });
  // Password hashes: readable by the service's own user only, as the accounts file was.
  if (!databaseUrl) await chmod(databaseFile(dataDir), 0o600);
  try {
    await migrate(db);
    await moveLegacyFile(db, dataDir);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return new AccountStore(db);
}

// --- internal ---

function fromRow(row: AccountRow): Account {
  return {
    email: row.email,
    role: row.role,
    ...(row.password_hash ? { passwordHash: row.password_hash } : {}),
    generation: row.generation,
    ...(row.email_verified_at ? { emailVerifiedAt: row.email_verified_at } : {}),
  };
}

/** Insert unless the e-mail has an account; resolves with the rows added (0 or 1). */
function insert(tx: Queries, account: { email: string; role: Role; passwordHash?: string; generation: string; verified: boolean }): Promise<number> {
  const now = new Date().toISOString();
  return tx.run('INSERT INTO accounts (email, role, password_hash, generation, created_at, email_verified_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING', [
    normalizeEmail(account.email),
    account.role,
    account.passwordHash ?? null,
    account.generation,
    now,
    account.verified ? now : null,
  ]);
}

/** Accounts from the old file, each unless the database has its e-mail already; generations kept, so nobody is signed out by the move. */
function importAccounts(db: Database, accounts: readonly Account[]): Promise<number> {
  return db.transaction(LOCKS.accounts, async (tx) => {
    let added = 0;
    for (const a of accounts) added += await insert(tx, { email: a.email, role: a.role, passwordHash: a.passwordHash, generation: a.generation ?? '', verified: true });
    return added;
  });
}

/** The one-time move of `users.json` into the database; the file is renamed, never deleted. */
async function moveLegacyFile(db: Database, dataDir: string): Promise<void> {
  const file = legacyAccountsFile(dataDir);
  if (!existsSync(file)) return;
  await importAccounts(db, await readAccounts(file));
  // Another instance may have moved it meanwhile: then it is gone, and that is fine.
  await rename(file, `${file}.moved-to-database`).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
