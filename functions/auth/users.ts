/**
 * Local accounts (the embedded sign-in): e-mail, role and scrypt hash, managed with `npm run
 * admin`, kept in the service's database (account-store.ts), outside the content store: they
 * are not content and never published. Earlier versions kept them in a JSON file, read here
 * once to move them into the database.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ifMissing } from '../../src/missing-file.ts';

export const ROLES = ['admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface Account {
  email: string;
  role: Role;
  /** Absent for accounts that sign in only through the OpenID Connect provider (`--sso`). */
  passwordHash?: string;
  /**
   * The session generation: sessions carry it and die when it changes. A new random value on
   * every add (so a removed and re-added account starts afresh), password or role change, and
   * sign-out everywhere. Absent in files written before it existed (then it is the empty string).
   */
  generation?: string;
  /** When the owner confirmed the e-mail address (ISO 8601); absent until then (a member who signed up). */
  emailVerifiedAt?: string;
}

/** A fresh session generation. */
export const newGeneration = (): string => randomBytes(12).toString('base64url');

/** Normalised e-mail: trimmed, lower-case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Every account in an accounts file of earlier versions (none when there is no file). */
export async function readAccounts(file: string): Promise<Account[]> {
  const text = await readFile(file, 'utf8').catch(ifMissing(undefined));
  return text === undefined ? [] : ((JSON.parse(text) as { accounts?: Account[] }).accounts ?? []);
}
