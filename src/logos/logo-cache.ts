/**
 * Logo results kept between builds (in `<generated>/logo-cache/`, git-ignored), so a rebuild
 * neither downloads a logo again nor re-encodes an unchanged file: one small JSON file per
 * source (a URL, or a committed file's bytes) and rendering. A failure is remembered for a day
 * only, then tried again; a success is kept until the folder is deleted.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOGO_RENDERING } from './logo-image.ts';

/** How long a failed download is remembered before a build tries it again. */
export const FAILURE_MEMORY_MS = 24 * 60 * 60 * 1000;

export type CachedLogo = { ok: true; webp: Buffer } | { ok: false; problem: string; detail: string; at: number };

export class LogoCache {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** The result for `key`, or undefined when there is none, or only a failure older than a day. */
  async get(key: string, now: number): Promise<CachedLogo | undefined> {
    let entry: Entry;
    try {
      entry = JSON.parse(await readFile(this.path(key), 'utf8')) as Entry;
    } catch {
      return undefined;
    }
    if (entry.key !== key) return undefined;
    if (entry.webp !== undefined) return { ok: true, webp: Buffer.from(entry.webp, 'base64') };
    if (now - entry.at >= FAILURE_MEMORY_MS) return undefined;
    return { ok: false, problem: entry.problem ?? 'failed', detail: entry.detail ?? '', at: entry.at };
  }

  async set(key: string, result: CachedLogo, now: number): Promise<void> {
    const entry: Entry = result.ok ? { key, at: now, webp: result.webp.toString('base64') } : { key, at: now, problem: result.problem, detail: result.detail };
    await mkdir(this.dir, { recursive: true });
    const path = this.path(key);
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(entry));
    await rename(temp, path);
  }

  private path(key: string): string {
    return join(this.dir, `${createHash('sha256').update(`${LOGO_RENDERING}\n${key}`).digest('hex').slice(0, 32)}.json`);
  }
}

// --- internal ---

interface Entry {
  key: string;
  at: number;
  webp?: string;
  problem?: string;
  detail?: string;
}
