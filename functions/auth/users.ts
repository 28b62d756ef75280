/**
 * Local accounts (the embedded sign-in): a JSON file of e-mail, role and scrypt hash, managed
 * with `npm run admin`. Kept outside the content store: it is not content and never published.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface Account {
  email: string;
  role: Role;
  /** Absent for accounts that sign in only through the OpenID Connect provider (`--sso`). */
  passwordHash?: string;
}

/** Normalised e-mail: trimmed, lower-case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Every account in the file (none when it does not exist yet). */
export async function readAccounts(file: string): Promise<Account[]> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { accounts?: Account[] };
    return parsed.accounts ?? [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Replace the file's accounts (temp file, then rename; readable by the owner only). */
export async function writeAccounts(file: string, accounts: readonly Account[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ accounts }, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}
