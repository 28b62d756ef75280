/**
 * Accounts and the session secret as the running server sees them: the accounts file is
 * re-read when it changes (so `npm run admin -- remove` takes effect within seconds), and the
 * secret comes from SESSION_SECRET or a random one kept in the data folder.
 */
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../http/errors.ts';
import { createFileAtomic } from '../store/durable-file.ts';
import { MIN_SECRET_BYTES } from './session.ts';
import { newGeneration, normalizeEmail, readAccounts, writeAccounts, type Account } from './users.ts';

export const accountsFile = (dataDir: string): string => join(dataDir, 'users.json');

export class AccountBook {
  private readonly file: string;
  private readonly readOnly: boolean;
  private cache: { checkedAt: number; mtimeMs: number; accounts: Map<string, Account> } | undefined;

  /** @param options.readOnly the file is bundled with a serverless function: read, never written (sign-out everywhere answers 503) */
  constructor(dataDir: string, options: { readOnly?: boolean } = {}) {
    this.file = accountsFile(dataDir);
    this.readOnly = options.readOnly ?? false;
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
    if (this.readOnly) {
      throw new ApiError(503, 'service_unavailable', 'Signing out everywhere changes the accounts file, which this deployment only reads; this session is signed out.', {
        hint: 'Run `npm run admin -- revoke <email>` where the accounts file is kept, and deploy it again (docs/deploying.md, Serverless).',
        headers: { 'Retry-After': '3600' },
      });
    }
    const accounts = await readAccounts(this.file);
    const key = normalizeEmail(email);
    await writeAccounts(
      this.file,
      accounts.map((a) => (normalizeEmail(a.email) === key ? { ...a, generation: newGeneration() } : a)),
    );
    this.cache = undefined;
  }

  private async accounts(now: number): Promise<Map<string, Account>> {
    if (this.cache && now - this.cache.checkedAt < 2000) return this.cache.accounts;
    const mtimeMs = await stat(this.file).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    if (!this.cache || this.cache.mtimeMs !== mtimeMs) {
      const accounts = new Map((await readAccounts(this.file)).map((a) => [normalizeEmail(a.email), a]));
      this.cache = { checkedAt: now, mtimeMs, accounts };
    } else {
      this.cache.checkedAt = now;
    }
    return this.cache.accounts;
  }
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
