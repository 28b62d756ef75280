/**
 * The mail the e2e server wrote to DATA_DIR/outbox (no SMTP configured: the fresh-clone
 * default), read as a person would open it: the newest mail of a kind to an address, and the
 * link in its body.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { e2e } from './context.ts';

export type MailKind = 'verify' | 'reset' | 'signin' | 'alert_digest';

/** The newest outbox mail of `kind` to `to`, headers and body as written. */
export async function newestMail(to: string, kind: MailKind): Promise<string> {
  const outbox = join(e2e().site.dataDir, 'outbox');
  let text = '';
  await expect
    .poll(
      async () => {
        const names = (await readdir(outbox).catch(() => [] as string[])).filter((n) => n.endsWith(`-${kind}.txt`)).sort();
        for (const name of names.reverse()) {
          const mail = await readFile(join(outbox, name), 'utf8');
          if (mail.startsWith(`To: ${to}\n`)) return (text = mail);
        }
        return '';
      },
      { timeout: 5000 },
    )
    .not.toBe('');
  return text;
}

/** The link with a token in the body of the newest outbox mail of `kind` to `to`, on this site's address. */
export async function mailedLink(to: string, kind: MailKind): Promise<string> {
  const mail = await newestMail(to, kind);
  const body = mail.slice(mail.indexOf('\n\n'));
  const link = new URL(/https?:\/\/\S+token=\S+/.exec(body)?.[0] ?? '');
  return e2e().url(`${link.pathname}${link.search}`);
}
