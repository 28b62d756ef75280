/**
 * The mail the e2e server sent, read as a person would open it: the newest mail of a kind to an
 * address, and the link in its body. Two mailboxes: the files the server writes to
 * DATA_DIR/outbox when no SMTP server is configured (the fresh-clone default), and a real SMTP
 * server on 127.0.0.1 (tests/helpers/notify-receivers.ts) for a site started with SMTP_URL.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ReceivedMail, Receiver } from '../../helpers/notify-receivers.ts';
import { e2e } from './context.ts';

export type MailKind = 'verify' | 'reset' | 'signin' | 'alert_digest';

export interface Mailbox {
  /** The newest mail of `kind` to `to` as text: its headers, a blank line, its body. */
  newestMail: (to: string, kind: MailKind) => Promise<string>;
}

/** DATA_DIR/outbox: one file per mail, named by its kind. */
export const outbox: Mailbox = {
  newestMail: (to, kind) =>
    newest(async () => {
      const dir = join(e2e().site.dataDir, 'outbox');
      const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(`-${kind}.txt`)).sort();
      for (const name of names.reverse()) {
        const mail = await readFile(join(dir, name), 'utf8');
        if (mail.startsWith(`To: ${to}\n`)) return mail;
      }
      return '';
    }),
};

/** The subject each kind of mail has (functions/auth/account-mail.ts, functions/members/alerts.ts). */
const SUBJECTS: Record<MailKind, RegExp> = {
  verify: /^Confirm your e-mail address/,
  reset: /^Reset your password/,
  signin: /^Your sign-in link/,
  alert_digest: / (changed|soon) on /,
};

/** What a real SMTP server received, as the envelope's recipients and the subject tell it. */
export function smtpMailbox(smtp: Receiver<ReceivedMail>): Mailbox {
  return {
    newestMail: (to, kind) =>
      newest(() => {
        const mail = smtp.received.findLast((m) => m.to.includes(to) && SUBJECTS[kind].test(m.headers.get('subject') ?? ''));
        return Promise.resolve(mail ? `${[...mail.headers].map(([name, value]) => `${name}: ${value}`).join('\n')}\n\n${mail.text}` : '');
      }),
  };
}

/** The link with a token in the body of the newest mail of `kind` to `to`, on this site's address. */
export async function mailedLink(to: string, kind: MailKind, mailbox: Mailbox = outbox): Promise<string> {
  const mail = await mailbox.newestMail(to, kind);
  const body = mail.slice(mail.indexOf('\n\n'));
  const link = new URL(/https?:\/\/\S+token=\S+/.exec(body)?.[0] ?? '');
  return e2e().url(`${link.pathname}${link.search}`);
}

// --- internal ---

/** Poll `read` for up to 5 s (mail is sent in the background) until it finds the mail. */
async function newest(read: () => Promise<string>): Promise<string> {
  let text = '';
  await expect.poll(async () => (text = await read()), { timeout: 5000 }).not.toBe('');
  return text;
}
