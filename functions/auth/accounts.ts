/**
 * Accounts and the session secret as the running server sees them: the accounts file is
 * re-read when it changes (so `npm run admin -- remove` takes effect within seconds), and the
 * secret comes from SESSION_SECRET or a random one kept in the data folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { normalizeEmail, readAccounts, type Account } from './users.ts';

export const accountsFile = (dataDir: string): string => join(dataDir, 'users.json');

export class AccountBook {
  private readonly file: string;
  private cache: { checkedAt: number; mtimeMs: number; accounts: Map<string, Account> } | undefined;

  constructor(dataDir: string) {
    this.file = accountsFile(dataDir);
  }

  /** The account for an e-mail, if it exists now. */
  async find(email: string, now = Date.now()): Promise<Account | undefined> {
    return (await this.accounts(now)).get(normalizeEmail(email));
  }

  private async accounts(now: number): Promise<Map<string, Account>> {
    if (this.cache && now - this.cache.checkedAt < 2000) return this.cache.accounts;
    const mtimeMs = await stat(this.file).then((s) => s.mtimeMs, () => 0);
    if (!this.cache || this.cache.mtimeMs !== mtimeMs) {
      const accounts = new Map((await readAccounts(this.file)).map((a) => [normalizeEmail(a.email), a]));
      this.cache = { checkedAt: now, mtimeMs, accounts };
    } else {
      this.cache.checkedAt = now;
    }
    return this.cache.accounts;
  }
}

/** SESSION_SECRET, or a random secret created once in the data folder. */
export async function loadSessionSecret(dataDir: string, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const file = join(dataDir, 'session-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
