/**
 * The mail the e2e server wrote to DATA_DIR/outbox (no SMTP configured: the fresh-clone
 * default), read as a person would open it: the link of the newest mail of a kind to an address.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { e2e } from './context.ts';

/** The link of the newest outbox mail of `kind` to `to`, on this site's address. */
export async function mailedLink(to: string, kind: 'verify' | 'reset' | 'signin'): Promise<string> {
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
  const link = new URL(/https?:\/\/\S+token=\S+/.exec(text)?.[0] ?? '');
  return e2e().url(`${link.pathname}${link.search}`);
}
