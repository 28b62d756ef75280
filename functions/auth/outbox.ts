/**
 * The outbox: where account mail goes while no SMTP server is set (a fresh clone, development):
 * one owner-only file per message in `DATA_DIR/outbox/`, a `To:` and a `Subject:` line (and any
 * extra headers, such as a digest's `List-Unsubscribe`), then the text. Written by auth/account-mail.ts; read back for a member's export and removed with the
 * account (members/member-data.ts), since each file holds the address it was for.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mail } from '../notify/messages.ts';
import { normalizeEmail } from './users.ts';
import { ifMissing } from '../../src/missing-file.ts';

/** One message in the outbox, as a member's export lists it (its link is left out). */
export type OutboxMail = {
  kind: string;
  subject: string;
  writtenAt: string;
};

/** The outbox folder of a data folder. */
export const outboxDir = (dataDir: string): string => join(dataDir, 'outbox');

/**
 * Write one message; the file name starts with the time, so names sort oldest first.
 * @returns the file written
 * @example await writeOutboxMail(outboxDir('.data'), 'mel@example.com', mail, 'verify')
 */
export async function writeOutboxMail(dir: string, to: string, mail: Mail, kind: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}-${kind}.txt`);
  const headers = Object.entries(mail.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\n`)
    .join('');
  await writeFile(file, `To: ${to}\nSubject: ${mail.subject}\n${headers}\n${mail.text}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

/** The messages to an address (compared without case), oldest first; none without an outbox. */
export async function outboxMailsTo(dir: string, email: string): Promise<OutboxMail[]> {
  const mails: OutboxMail[] = [];
  for (const { name, head } of await filesTo(dir, email)) {
    const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
    const writtenAt = (await stat(join(dir, name))).mtime.toISOString();
    mails.push({ kind: FILE_NAME.exec(name)?.[1] ?? 'mail', subject, writtenAt });
  }
  return mails;
}

/** Remove every message to an address. @returns how many were removed */
export async function removeOutboxMailsTo(dir: string, email: string): Promise<number> {
  const files = await filesTo(dir, email);
  for (const { name } of files) await rm(join(dir, name), { force: true });
  return files.length;
}

// --- internal ---

/** `<time>-<8 hex>-<kind>.txt`, as writeOutboxMail names a file. */
const FILE_NAME = /^[\dT-]+Z-[0-9a-f]{8}-([a-z_-]+)\.txt$/;

/** The outbox files addressed to `email`, with their head (the lines before the text), sorted by name. */
async function filesTo(dir: string, email: string): Promise<{ name: string; head: string }[]> {
  const names = await readdir(dir).catch(ifMissing<string[]>([]));
  const wanted = normalizeEmail(email);
  const found: { name: string; head: string }[] = [];
  for (const name of names.filter((n) => FILE_NAME.test(n)).sort()) {
    const text = await readFile(join(dir, name), 'utf8').catch(ifMissing(''));
    const head = text.slice(0, Math.max(0, text.indexOf('\n\n')));
    const to = /^To: (.*)$/m.exec(head)?.[1];
    if (to !== undefined && normalizeEmail(to) === wanted) found.push({ name, head });
  }
  return found;
}
