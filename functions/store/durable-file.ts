/**
 * Small files written so that a crash or a full disk leaves either the old file or the whole
 * new one, never an empty or half-written one: a temp file beside it, written and fsynced, then
 * renamed (or linked, to create without replacing), then the folder fsynced.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Replace `file` with `text` atomically. */
export async function writeFileAtomic(file: string, text: string, mode = 0o600): Promise<void> {
  await withTempFile(file, text, mode, (temp) => rename(temp, file));
}

/**
 * Create `file` with `text` atomically unless it exists; resolves false when it already did
 * (another process won the race: read theirs).
 */
export async function createFileAtomic(file: string, text: string, mode = 0o600): Promise<boolean> {
  let created = true;
  await withTempFile(file, text, mode, async (temp) => {
    try {
      await link(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      created = false;
    }
    await rm(temp, { force: true });
  });
  return created;
}

/** fsync a file or folder by path. */
export async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// --- internal ---

async function withTempFile(file: string, text: string, mode: number, place: (temp: string) => Promise<void>): Promise<void> {
  const folder = dirname(file);
  await mkdir(folder, { recursive: true });
  const temp = join(folder, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await place(temp);
    await syncPath(folder);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
