/**
 * Accounts and the session secret as the running server sees them: accounts are read from the
 * database (account-store.ts) at most every 2 s (so `npm run admin -- remove` takes effect
 * within seconds on every instance), and the secret comes from SESSION_SECRET or a random one
 * kept in the data folder.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../http/errors.ts';
import { createFileAtomic } from '../store/durable-file.ts';
import { openAccountStore, type AccountStore } from './account-store.ts';
import { MIN_SECRET_BYTES } from './session.ts';
import { normalizeEmail, type Account } from './users.ts';

/** How long a read of the accounts is reused. */
const FRESH_MS = 2000;

export class AccountBook {
  private readonly options: { dataDir: string; databaseUrl?: string; readOnly?: boolean };
  private store: Promise<AccountStore> | undefined;
  private cache: { checkedAt: number; accounts: Map<string, Account> } | undefined;

  /**
   * @param options.readOnly a serverless function without `DATABASE_URL`: its bundled accounts are read, never written (sign-out everywhere answers 503)
   */
  constructor(options: { dataDir: string; databaseUrl?: string; readOnly?: boolean }) {
    this.options = options;
  }

  /** The account for an e-mail, if it exists now. */
  async find(email: string, now = Date.now()): Promise<Account | undefined> {
    return (await this.accounts(now)).get(normalizeEmail(email));
  }

  /** The e-mails of the admin accounts now: who hears of a new submission unless NOTIFY_ADMIN_EMAILS names others. */
  async adminEmails(now = Date.now()): Promise<string[]> {
    return [...(await this.accounts(now)).values()].filter((a) => a.role === 'admin').map((a) => a.email);
  }

  /** Sign an account out everywhere: a new session generation voids every cookie it had. */
  async signOutEverywhere(email: string): Promise<void> {
    await this.change('Signing out everywhere', 'this session is signed out', (store) => store.renewGeneration(email));
  }

  /** A member who signed up (unconfirmed); false when the e-mail has an account already. */
  addMember(email: string, passwordHash: string): Promise<boolean> {
    return this.change('Signing up', 'nothing was stored', (store) => store.addMember(email, passwordHash));
  }

  /** The address was confirmed through its link. */
  markVerified(email: string): Promise<boolean> {
    return this.change('Confirming an address', 'nothing was changed', (store) => store.markVerified(email));
  }

  /** A new password through a reset link: a new generation ends every session and every other link. */
  setPassword(email: string, passwordHash: string): Promise<boolean> {
    return this.change('Resetting a password', 'nothing was changed', (store) => store.setPassword(email, passwordHash));
  }

  /** Open the store now (moving an old accounts file in), rather than at the first sign-in. */
  async ready(): Promise<void> {
    await this.opened();
  }

  async close(): Promise<void> {
    const store = this.store;
    this.store = undefined;
    await store?.then((s) => s.close()).catch(() => undefined);
  }

  /** Change the accounts, then read them afresh; where they are only read (a bundled copy), 503 naming `what`. */
  private async change<T>(what: string, outcome: string, work: (store: AccountStore) => Promise<T>): Promise<T> {
    if (this.options.readOnly && !this.options.databaseUrl) {
      throw new ApiError(503, 'service_unavailable', `${what} changes the accounts, which this deployment only reads; ${outcome}.`, {
        hint: 'Set DATABASE_URL so functions share a writable accounts database, or change accounts with `npm run admin` where they are kept and deploy again (docs/deploying.md, Serverless).',
        headers: { 'Retry-After': '3600' },
      });
    }
    const store = await this.opened();
    try {
      return await work(store);
    } finally {
      this.cache = undefined;
    }
  }

  private async accounts(now: number): Promise<Map<string, Account>> {
    if (this.cache && now - this.cache.checkedAt < FRESH_MS) return this.cache.accounts;
    const store = await this.opened();
    const list = await store.list().catch(() => Promise.reject(unavailable()));
    const accounts = new Map(list.map((a) => [normalizeEmail(a.email), a]));
    this.cache = { checkedAt: now, accounts };
    return accounts;
  }

  /** The store, opened on first use; a failed open is tried again on the next call, and answers 503 meanwhile. */
  private async opened(): Promise<AccountStore> {
    this.store ??= openAccountStore(this.options);
    try {
      return await this.store;
    } catch {
      this.store = undefined;
      throw unavailable();
    }
  }
}

function unavailable(): ApiError {
  return new ApiError(503, 'service_unavailable', 'The accounts database cannot be reached now.', { hint: 'Try again in a minute.', headers: { 'Retry-After': '30' } });
}

/**
 * SESSION_SECRET, or a random secret created once in the data folder. A secret under
 * MIN_SECRET_BYTES from any source stops the start: an empty one would let anyone sign a session.
 */
export async function loadSessionSecret(dataDir: string, configured: string | undefined): Promise<string> {
  if (configured !== undefined && configured !== '') return checkedSecret(configured, 'SESSION_SECRET');
  const file = join(dataDir, 'session-secret');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // Written whole or not at all; when another process got there first, theirs is read.
    await createFileAtomic(file, randomBytes(32).toString('base64url'));
    text = await readFile(file, 'utf8');
  }
  return checkedSecret(text.trim(), file);
}

// --- internal ---

function checkedSecret(secret: string, source: string): string {
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
    throw new Error(
      `The session secret from ${source} has ${Buffer.byteLength(secret)} bytes; at least ${MIN_SECRET_BYTES} are needed. Set a longer SESSION_SECRET, or delete the file to have a new one generated.`,
    );
  }
  return secret;
}
