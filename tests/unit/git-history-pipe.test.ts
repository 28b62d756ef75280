/**
 * A git that exits before reading its input must not take the process down: writing to its
 * closed stdin raises EPIPE, which, unheard, is an uncaught 'error' event (it ended the e2e
 * server in CI while the admin read a deal's history). Here git exits at once (the folder is no
 * repository) while a megabyte of object names is written to it: `readAt` rejects, and nothing
 * else happens (vitest fails a run with an uncaught error).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readAt } from '../../functions/store/git-history.ts';

test('readAt rejects, and raises nothing uncaught, when git exits without reading its input', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'deals-not-a-repo-'));
  try {
    const versions = Array.from({ length: 20_000 }, (_, i) => ({ commit: 'a'.repeat(40), path: `deals/record-${i}.md` }));
    for (let round = 0; round < 5; round++) await expect(readAt(folder, folder, versions)).rejects.toThrow();
    // Give a late EPIPE the time to surface as an uncaught error.
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
