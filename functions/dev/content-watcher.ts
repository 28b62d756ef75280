/**
 * Watch a content folder for saves and report the content files that changed, a batch at a
 * time once the saves settle (an editor's save is often several events: write, rename, a
 * backup removed). One node:fs `watch` per folder the catalog reads (the root, `deals/`,
 * `startups/`): a folder's watch sees a file replaced by rename, as editors save atomically,
 * where Node's recursive watch on Linux loses a file after its first such save.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { isContentFile } from '../../src/pipeline/read-content.ts';

export interface ContentWatcher {
  close: () => void;
}

/**
 * @param onChange called with the changed paths (relative to `root`, `/` separators), or
 * `undefined` when the platform did not say which file changed (then anything may have)
 * @param options.settleMs quiet time after the last event before a batch is reported
 * @example const watcher = watchContent('content', (paths) => console.log(paths)); watcher.close()
 */
export function watchContent(root: string, onChange: (paths: string[] | undefined) => void, options: { settleMs?: number; onError?: (error: Error) => void } = {}): ContentWatcher {
  const settleMs = options.settleMs ?? 25;
  const pending = new Set<string>();
  const folders = new Map<string, FSWatcher>();
  let unknown = false;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    const paths = unknown ? undefined : [...pending].sort();
    pending.clear();
    unknown = false;
    onChange(paths);
  };
  const noted = (path: string | undefined) => {
    if (path === undefined) unknown = true;
    // Swap, backup and lock files, logos and the git folder are no content the catalog reads.
    else if (isContentFile(path)) pending.add(path);
    else return;
    clearTimeout(timer);
    timer = setTimeout(flush, settleMs);
  };
  const follow = (folder: string) => {
    folders.get(folder)?.close();
    try {
      const watcher = watch(join(root, folder), (_event, name) => noted(name === null ? undefined : `${folder}/${name}`));
      // The folder went (deleted, replaced by a checkout): the root's watch sees it come back.
      watcher.on('error', () => watcher.close());
      folders.set(folder, watcher);
    } catch {
      // Not there (yet): the root's watch follows it when it is made.
    }
  };

  const top = watch(root, (_event, name) => {
    if (name !== null && SUBFOLDERS.includes(name)) {
      follow(name);
      // A folder that appeared or came back may hold files never seen: read everything.
      noted(undefined);
    } else noted(name ?? undefined);
  });
  top.on('error', (error) => options.onError?.(error));
  for (const folder of SUBFOLDERS) follow(folder);
  return {
    close: () => {
      clearTimeout(timer);
      top.close();
      for (const watcher of folders.values()) watcher.close();
    },
  };
}

// --- internal ---

/** The folders whose files the catalog reads (src/pipeline/read-content.ts). */
const SUBFOLDERS = ['deals', 'startups'];
