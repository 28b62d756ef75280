/**
 * A cheap fingerprint of the inputs of a build (file paths, sizes and modification times), so
 * `npm start` rebuilds only when content or code changed since the last build.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * @example await inputsFingerprint(['content', 'src'])
 */
export async function inputsFingerprint(paths: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const path of paths) await addPath(hash, path);
  return hash.digest('hex').slice(0, 32);
}

// --- internal ---

async function addPath(hash: ReturnType<typeof createHash>, path: string): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch {
    hash.update(`missing:${path}\n`);
    return;
  }
  if (info.isDirectory()) {
    const names = (await readdir(path)).filter((n) => n !== '.git' && n !== 'node_modules').sort();
    for (const name of names) await addPath(hash, join(path, name));
  } else {
    hash.update(`${path}:${info.size}:${Math.floor(info.mtimeMs)}\n`);
  }
}
