/**
 * The preview loop of `npm run dev`, inside the server: a save under the content folder goes
 * through the same content sync as a pulled commit (changed deal files re-indexed alone, other
 * files rebuild the catalog), then every open page reloads. A save that does not build keeps
 * the last good catalog; its errors go to the terminal and over the open pages until fixed.
 */
import { readFile } from 'node:fs/promises';
import { formatDiagnostic, sortDiagnostics } from '../../src/pipeline/diagnostics.ts';
import type { Deps } from '../deps.ts';
import type { SiteHandler } from '../http/app.ts';
import { watchContent } from './content-watcher.ts';
import { withPreview } from './dev-site.ts';
import { ReloadChannel } from './reload-channel.ts';

export interface DevLoop {
  /** The site with the preview paths and the page script. */
  site: (site: SiteHandler) => SiteHandler;
  /** Serve the working tree after `paths` changed (all of it when not given) and tell the open pages. */
  refresh: (paths?: string[]) => Promise<void>;
  close: () => void;
}

/**
 * @param print where the loop reports, one line at a time (the terminal)
 * @example const dev = await startDevLoop(deps); createApp(deps, { site: dev.site(site) })
 */
export async function startDevLoop(deps: Pick<Deps, 'content' | 'config' | 'log' | 'state'>, print: (line: string) => void = console.error): Promise<DevLoop> {
  const channel = new ReloadChannel();
  const client = new Uint8Array(await readFile(new URL('./reload-client.js', import.meta.url)));
  // The catalog the open pages last showed: an admin write or a pull also changes it (and their files, so the watcher sees them).
  let shown = deps.state().catalog.version;

  const refresh = async (paths?: string[]): Promise<void> => {
    const started = performance.now();
    const what = paths ? paths.join(', ') : 'content';
    const { changed, diagnostics } = await deps.content.refresh(paths);
    if (diagnostics.length > 0) {
      const lines = sortDiagnostics(diagnostics).map(formatDiagnostic);
      for (const line of lines) print(line);
      print(`✗ ${what}: ${lines.length} error(s); the site keeps serving the last good catalog`);
      channel.send({ type: 'problem', lines });
      return;
    }
    if (channel.failing) channel.send({ type: 'ok' });
    const version = deps.state().catalog.version;
    if (version === shown) return;
    shown = version;
    channel.send({ type: 'reload' });
    print(`✓ ${what}: ${changed ? `re-indexed in ${Math.round(performance.now() - started)} ms` : 'served already (an admin write or a pull)'}, open pages reload`);
  };

  const watcher = watchContent(deps.config.contentDir, (paths) => void refresh(paths).catch((error: unknown) => deps.log.error('dev_refresh_failed', { error: String(error) })), {
    onError: (error) => deps.log.error('dev_watch_failed', { error: error.message }),
  });
  print(`dev: watching ${deps.config.contentDir}; saved content shows on open pages at once`);
  return {
    site: (site) => withPreview(site, channel, client),
    refresh,
    close: () => {
      watcher.close();
      channel.close();
    },
  };
}
