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
import type { EraseOutcome, MemberDataStore } from '../members/member-data-store.ts';
import type { SavedItemStore } from '../members/saved-store.ts';
import type { ProfileStore } from '../members/profile-store.ts';
import type { PlanStore } from '../billing/plan-store.ts';
import type { SubmissionLinkStore } from '../members/submission-links.ts';
import { MIN_SECRET_BYTES } from './session.ts';
import { normalizeEmail, type Account } from './users.ts';
import { isMissing } from '../../src/missing-file.ts';

/** How long a read of an account is reused (a change made elsewhere, such as `npm run admin`, shows within this). */
const FRESH_MS = 2000;
/** Accounts whose last read is kept at most; beyond, the memory starts afresh. */
const MAX_CACHED = 10_000;

/** A member's own data, each kind in its store. */
export interface MemberData {
  saved: SavedItemStore;
  profiles: ProfileStore;
  /** Paid plans (billing/plan-store.ts). */
  plans: PlanStore;
  /** The submissions made while signed in (members/submission-links.ts). */
  submissions: SubmissionLinkStore;
  /** Every section of a member's data together (members/member-data-store.ts): the export and the privacy page. */
  whole: MemberDataStore;
}

export class AccountBook {
  private readonly options: { dataDir: string; databaseUrl?: string; readOnly?: boolean };
  private store: Promise<AccountStore> | undefined;
  /** The last read of each account asked for (`undefined`: it had none), by normalised e-mail. */
  private readonly cache = new Map<string, { checkedAt: number; account: Account | undefined }>();

  /**
   * @param options.readOnly a serverless function without `DATABASE_URL`: its bundled accounts are read, never written (changes answer 503)
   */
  constructor(options: { dataDir: string; databaseUrl?: string; readOnly?: boolean }) {
    this.options = options;
  }

  /** The account for an e-mail, if it exists now (read at most `FRESH_MS` ago). */
  async find(email: string, now = Date.now()): Promise<Account | undefined> {
    const key = normalizeEmail(email);
    const cached = this.cache.get(key);
    if (cached && now - cached.checkedAt < FRESH_MS) return cached.account;
    const account = await this.using((store) => store.find(key));
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(key, { checkedAt: now, account });
    return account;
  }

  /** The e-mails of the admin accounts now: who hears of a new submission unless NOTIFY_ADMIN_EMAILS names others. */
  async adminEmails(): Promise<string[]> {
    return (await this.using((store) => store.admins())).map((a) => a.email);
  }

  /** Sign an account out everywhere: a new session generation voids every cookie it had. */
  async signOutEverywhere(email: string): Promise<void> {
    await this.change('Signing out everywhere', 'this session is signed out', email, (store) => store.renewGeneration(email));
  }

  /** A member who signed up (unconfirmed); undefined when the address has a confirmed account (account-store.ts). */
  addMember(email: string, passwordHash: string): Promise<Account | undefined> {
    return this.change('Signing up', 'nothing was stored', email, (store) => store.addMember(email, passwordHash));
  }

  /** The address was confirmed through its link, made for generation `gen`. */
  markVerified(email: string, gen: string): Promise<boolean> {
    return this.change('Confirming an address', 'nothing was changed', email, (store) => store.markVerified(email, gen));
  }

  /** Signed in through the identity provider: an unconfirmed account loses the password someone chose by signing up with the address. */
  claimUnconfirmed(email: string): Promise<boolean> {
    return this.change('Signing in', 'nothing was changed', email, (store) => store.claimUnconfirmed(email));
  }

  /** Signed up through the identity provider (a verified address): a member without a password, confirmed. @returns whether it was new */
  addVerifiedMember(email: string): Promise<boolean> {
    return this.change('Signing up', 'nothing was stored', email, (store) => store.addVerifiedMember(email));
  }

  /** Sign in with a mailed link (its nonce spent, once): the member account, or undefined when the link was used or voided (account-store.ts). */
  useSignInLink(link: { email: string; gen: string; nonce: string; expiresAtMs: number }, nowMs: number): Promise<Account | undefined> {
    return this.change('Signing in with a link', 'nobody was signed in', link.email, (store) => store.useSignInLink(link, nowMs));
  }

  /** A new password through a reset link made for generation `gen`: false when the link was used or replaced meanwhile. */
  setPassword(email: string, passwordHash: string, gen: string): Promise<boolean> {
    return this.change('Resetting a password', 'nothing was changed', email, (store) => store.setPassword(email, passwordHash, gen));
  }

  /**
   * Run `work` on the members' own data in the accounts' database (saved items, profiles, plans, submissions,
   * and all of it for the export: functions/members/); `change` names a write, refused (503) where
   * accounts are only read. A database that fails is 503.
   */
  memberData<T>(work: (data: MemberData) => Promise<T>, change?: string): Promise<T> {
    if (change) this.assertWritable(change, 'nothing was changed');
    return this.using((store) => work({ saved: store.savedItems, profiles: store.profiles, plans: store.plans, submissions: store.submissionLinks, whole: store.memberData }));
  }

  /** Remove the sign-ups never confirmed in time (account-store.ts); none where accounts are only read. */
  removeStaleSignUps(now: Date): Promise<number> {
    if (!this.writable) return Promise.resolve(0);
    return this.using((store) => store.removeStaleSignUps(now.getTime()));
  }

  /** Whether accounts may be changed here (not a bundled read-only copy). */
  get writable(): boolean {
    return !this.options.readOnly || Boolean(this.options.databaseUrl);
  }

  /**
   * Delete an account and everything stored about it, while it still has the session
   * generation `gen` and is not the last admin (members/member-data-store.ts); 503 where
   * accounts are only read. Its next read here is afresh: the account is gone at once.
   */
  eraseMember(email: string, gen: string, dataDir: string): Promise<EraseOutcome> {
    return this.change('Deleting an account', 'nothing was deleted', email, (store) => store.memberData.erase(normalizeEmail(email), dataDir, { gen, keepAnAdmin: true }));
  }

  /** 503 naming `what` where accounts are only read (a bundled copy on a serverless function). */
  assertWritable(what: string, outcome: string): void {
    if (this.writable) return;
    throw new ApiError(503, 'service_unavailable', `${what} changes the accounts, which this deployment only reads; ${outcome}.`, {
      hint: 'Set DATABASE_URL so functions share a writable accounts database, or change accounts with `npm run admin` where they are kept and deploy again (docs/deploying.md, Serverless).',
      headers: { 'Retry-After': '3600' },
    });
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

  /** Change the account of `email`; its next read is afresh. A database that fails is 503, as a failed read is. */
  private async change<T>(what: string, outcome: string, email: string, work: (store: AccountStore) => Promise<T>): Promise<T> {
    this.assertWritable(what, outcome);
    try {
      return await this.using(work);
    } finally {
      this.cache.delete(normalizeEmail(email));
    }
  }

  /** Run `work` on the store; a database that fails (down, busy) is 503, as a failed open is. */
  private async using<T>(work: (store: AccountStore) => Promise<T>): Promise<T> {
    const store = await this.opened();
    return work(store).catch(() => Promise.reject(unavailable()));
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
    if (!isMissing(error)) throw error;
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
