/**
 * The server process behind `npm start`, `npm run serve` and `npm run dev`: start the server,
 * tell a parent process (tests, the benchmark) where it listens, pick up hand edits in the
 * content folder on SIGHUP (as servers reload on it; not in dev, which watches), and close
 * cleanly on SIGINT or SIGTERM.
 */
import { flushCompileCache } from 'node:module';
import type { Config } from '../functions/config.ts';
import type { RunningServer } from '../functions/server.ts';
import { readCatalogFiles } from '../functions/reads/catalog-files.ts';

/**
 * `npm start` and `npm run dev`: build when the build is missing or stale, then serve. Content
 * that does not build never takes the site down: the last good build is served, and the log and
 * /api/v1/health say what is wrong; with no good build at all the process exits (status 1).
 */
export async function buildAndServe(config: Config, options: { dev?: boolean } = {}): Promise<RunningServer> {
  // Loaded here, not with the server: `npm run serve` serves a build as it is, and the build's modules took a tenth of its start.
  const { prepareBuild } = await import('./_build-steps.ts');
  const build = await prepareBuild(config, options);
  if (build === 'refused') process.exit(1);
  return runServer(config, { ...options, lastGood: build === 'last-good' });
}

/**
 * @param options.dev the preview loop (`npm run dev`)
 * @param options.lastGood the build served is the last good one, older than the content (which does not build): say so in the log and health at once
 * @example await runServer(settings(), { dev: true })
 */
export async function runServer(config: Config, options: { dev?: boolean; lastGood?: boolean } = {}): Promise<RunningServer> {
  // The build's files are read while the server's modules load (about 170 MB at 50,000 deals and
  // 100,000 startups): docs/performance.md, fifteenth sitting.
  const files = readCatalogFiles(config.generatedDir);
  const { startServer } = await import('../functions/server.ts');
  const running = await startServer(config, undefined, { dev: options.dev, files });
  const { deps, dev } = running;
  // In dev the loop also tells the open pages.
  const refresh = async (): Promise<void> => {
    if (dev) return dev.refresh();
    await deps.content.refresh();
  };
  if (options.lastGood) await refresh();
  process.send?.({ listening: running.url });
  console.error(`serving on ${running.url} (process ${process.pid})`);
  // The compile cache (scripts/_compile-cache.ts) is otherwise written only at exit, which a killed
  // server never reaches. Written a little later, not before the first answers: it takes 26-44 ms
  // at every start, nothing compiled or not (docs/performance.md, fourteenth sitting).
  setTimeout(flushCompileCache, COMPILE_CACHE_FLUSH_MS).unref();
  // Hand edits in the content folder (a `git pull` by hand, a fixed file): re-read the tree, as a pull would.
  // Not in dev, which watches: there SIGHUP keeps its meaning (the terminal closed) and ends the process.
  if (!dev) {
    process.on('SIGHUP', () => {
      deps.log.info('content_refresh', { trigger: 'SIGHUP' });
      void refresh().catch((error: unknown) => deps.log.error('content_refresh_failed', { error: String(error) }));
    });
  }
  // Exit cleanly on a signal (so `--cpu-prof` can write its profile, and connections close).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void running.close().then(() => process.exit(0));
    });
  }
  return running;
}

/** When the compile cache is written after the server starts listening. */
const COMPILE_CACHE_FLUSH_MS = 5000;
