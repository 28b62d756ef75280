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
import { MemberDataStore } from '../members/member-data-store.ts';
import { SavedItemStore } from '../members/saved-store.ts';
import { ProfileStore } from '../members/profile-store.ts';
import { PlanStore } from '../billing/plan-store.ts';
import { SubmissionLinkStore } from '../members/submission-links.ts';
import { newGeneration, normalizeEmail, readAccounts, type Account, type Role } from './users.ts';

/** How long an unconfirmed sign-up is kept: as long as its link works. */
export const UNCONFIRMED_TTL_MS = 48 * 3600 * 1000;

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
  /** Members' saved items, in the same database (removed with their account). */
  readonly savedItems: SavedItemStore;
  /** Members' profiles and alert settings (removed with their account). */
  readonly profiles: ProfileStore;
  /** Everything stored about a member, for the export and the deletion of an account (members/member-data.ts). */
  readonly memberData: MemberDataStore;
  /** Members' paid plans, in the same database (removed with their account). */
  readonly plans: PlanStore;
  /** The submissions members made while signed in (removed with their account). */
  readonly submissionLinks: SubmissionLinkStore;

  constructor(db: Database) {
    this.db = db;
    this.savedItems = new SavedItemStore(db);
    this.profiles = new ProfileStore(db);
    this.memberData = new MemberDataStore(db);
    this.plans = new PlanStore(db);
    this.submissionLinks = new SubmissionLinkStore(db);
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

  /** The admin accounts (who hears of a new submission). */
  async admins(): Promise<Account[]> {
    return (await this.db.all<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE role = 'admin' ORDER BY email`)).map(fromRow);
  }

  /**
   * Add the account, or replace the one with its e-mail (an operator's `npm run admin`; its
   * address counts as confirmed); always with a new session generation, so a re-added account
   * or a new password or role ends every earlier session. One upsert: a sign-up for the same
   * address at the same moment cannot end up as the row.
   * @returns whether it was new
   */
  put(account: { email: string; role: Role; passwordHash?: string }): Promise<boolean> {
    const email = normalizeEmail(account.email);
    const now = new Date().toISOString();
    return this.db.transaction(LOCKS.accounts, async (tx) => {
      const existed = (await tx.all('SELECT 1 FROM accounts WHERE email = $1', [email])).length > 0;
      await tx.run(
        `INSERT INTO accounts (email, role, password_hash, generation, created_at, email_verified_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (email) DO UPDATE SET role = excluded.role, password_hash = excluded.password_hash, generation = excluded.generation, email_verified_at = excluded.email_verified_at`,
        [email, account.role, account.passwordHash ?? null, newGeneration(), now],
      );
      return !existed;
    });
  }

  /**
   * A member who signed up, unconfirmed. The newest sign-up for an unconfirmed address owns it:
   * its password replaces the earlier one and a new generation voids the earlier links (someone
   * who signed up with another's address first cannot have the owner confirm their password).
   * A confirmed account is left as it is. Unconfirmed accounts older than `UNCONFIRMED_TTL_MS`
   * are removed on the way.
   * @returns the account to send a confirmation link for, or undefined when the address has a confirmed account
   */
  async addMember(email: string, passwordHash: string, nowMs = Date.now()): Promise<Account | undefined> {
    const key = normalizeEmail(email);
    await this.removeStaleSignUps(nowMs);
    const changed = await this.db.run(
      `INSERT INTO accounts (email, role, password_hash, generation, created_at, email_verified_at) VALUES ($1, 'member', $2, $3, $4, NULL)
       ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, generation = excluded.generation, created_at = excluded.created_at
       WHERE accounts.email_verified_at IS NULL`,
      [key, passwordHash, newGeneration(), new Date(nowMs).toISOString()],
    );
    return changed > 0 ? this.find(key) : undefined;
  }

  /** Remove the sign-ups never confirmed within `UNCONFIRMED_TTL_MS` (their links stopped working); resolves with how many. */
  removeStaleSignUps(nowMs = Date.now()): Promise<number> {
    return this.db.run('DELETE FROM accounts WHERE email_verified_at IS NULL AND created_at < $1', [new Date(nowMs - UNCONFIRMED_TTL_MS).toISOString()]);
  }

  /** The owner of the address confirmed it with the link made for generation `gen`. @returns whether it matched */
  async markVerified(email: string, gen: string): Promise<boolean> {
    return (
      (await this.db.run('UPDATE accounts SET email_verified_at = coalesce(email_verified_at, $1) WHERE email = $2 AND generation = $3', [new Date().toISOString(), normalizeEmail(email), gen])) > 0
    );
  }

  /**
   * Signed in through the identity provider, which vouched for the address: an unconfirmed
   * account (a password someone chose by signing up with it) loses that password and its links,
   * and counts as confirmed. @returns whether there was such an unconfirmed account
   */
  async claimUnconfirmed(email: string): Promise<boolean> {
    return (
      (await this.db.run('UPDATE accounts SET password_hash = NULL, generation = $1, email_verified_at = $2 WHERE email = $3 AND email_verified_at IS NULL', [
        newGeneration(),
        new Date().toISOString(),
        normalizeEmail(email),
      ])) > 0
    );
  }

  /**
   * A member who signed up through the identity provider, which vouched for the address: no
   * password, confirmed. An address that has an account already is left as it is (two sign-ins
   * at once make one account). @returns whether it was new
   */
  async addVerifiedMember(email: string, nowMs = Date.now()): Promise<boolean> {
    const now = new Date(nowMs).toISOString();
    return (
      (await this.db.run(`INSERT INTO accounts (email, role, password_hash, generation, created_at, email_verified_at) VALUES ($1, 'member', NULL, $2, $3, $3) ON CONFLICT (email) DO NOTHING`, [
        normalizeEmail(email),
        newGeneration(),
        now,
      ])) > 0
    );
  }

  /**
   * Sign in with a mailed link: its nonce is recorded as used first (the primary key lets one
   * request through, however many come at once), then the link counts only for a member account
   * that still has the generation it was made for (a password change, a reset or signing out
   * everywhere voids it). The link proves the address: an unconfirmed account counts as
   * confirmed and, as with a provider sign-in, loses the password someone chose by signing up
   * with it, and its other links. Used nonces are swept once their link has expired.
   * @returns the account to sign in, or undefined when the link was used, voided or is not a member's
   */
  useSignInLink(link: { email: string; gen: string; nonce: string; expiresAtMs: number }, nowMs = Date.now()): Promise<Account | undefined> {
    const email = normalizeEmail(link.email);
    const now = new Date(nowMs).toISOString();
    return this.db.transaction(LOCKS.accounts, async (tx) => {
      await tx.run('DELETE FROM used_links WHERE expires_at < $1', [now]);
      const fresh = await tx.run('INSERT INTO used_links (nonce, expires_at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING', [link.nonce, new Date(link.expiresAtMs).toISOString()]);
      if (fresh === 0) return undefined;
      const [row] = await tx.all<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE email = $1 AND generation = $2 AND role = 'member'`, [email, link.gen]);
      if (!row) return undefined;
      if (row.email_verified_at) return fromRow(row);
      const generation = newGeneration();
      await tx.run('UPDATE accounts SET password_hash = NULL, generation = $1, email_verified_at = $2 WHERE email = $3', [generation, now, email]);
      return fromRow({ ...row, password_hash: null, generation, email_verified_at: now });
    });
  }

  /**
   * A new password through a reset link made for generation `gen` (it also confirms the
   * address) and a new generation: every session and every other link of the account ends, and
   * the link cannot be used twice, even by two requests at once.
   * @returns whether the account still had that generation
   */
  async setPassword(email: string, passwordHash: string, gen: string): Promise<boolean> {
    const now = new Date().toISOString();
    return (
      (await this.db.run('UPDATE accounts SET password_hash = $1, generation = $2, email_verified_at = coalesce(email_verified_at, $3) WHERE email = $4 AND generation = $5', [
        passwordHash,
        newGeneration(),
        now,
        normalizeEmail(email),
        gen,
      ])) > 0
    );
  }

  /**
   * The account's row, and what the database removes with it (`ON DELETE CASCADE`). To remove
   * a member with everything stored about them (files too), `memberData.erase`.
   * @returns whether there was such an account
   */
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
  try {
    // Password hashes: readable by the service's own user only, as the accounts file was.
    if (!databaseUrl) await chmod(databaseFile(dataDir), 0o600);
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
function importAccounts(db: Database, accounts: readonly Account[], once?: string): Promise<number> {
  return db.transaction(LOCKS.accounts, async (tx) => {
    // Done before (by this instance or another sharing the database): accounts removed since must not come back.
    if (once && (await tx.all('SELECT 1 FROM app_state WHERE key = $1', [once])).length > 0) return 0;
    let added = 0;
    for (const a of accounts) added += await insert(tx, { email: a.email, role: a.role, passwordHash: a.passwordHash, generation: a.generation ?? '', verified: true });
    if (once) await tx.run('INSERT INTO app_state (key, value) VALUES ($1, $2)', [once, new Date().toISOString()]);
    return added;
  });
}

/** The one-time move of `users.json` into the database; the file is renamed, never deleted. */
async function moveLegacyFile(db: Database, dataDir: string): Promise<void> {
  const file = legacyAccountsFile(dataDir);
  if (!existsSync(file)) return;
  await importAccounts(db, await readAccounts(file), 'users-json-moved');
  // Renamed where possible (another instance may have done it; a read-only folder keeps it): it is never read again either way.
  await rename(file, `${file}.moved-to-database`).catch(() => undefined);
}
