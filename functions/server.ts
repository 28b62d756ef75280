/**
 * Start the service on one port: load the prebuilt catalog, wire the handlers, mount Astro's
 * build, listen. `npm start` calls this after making sure the build is current.
 */
import type { Server } from 'node:http';
import { contentRemoteOf, type Config } from './config.ts';
import { createNodeServer } from './adapters/node.ts';
import { createApp } from './http/app.ts';
import { openSite } from './site/open-site.ts';
import { loadGeneratedCatalog } from './reads/catalog-state.ts';
import type { CatalogFiles } from './reads/catalog-files.ts';
import { prepareLookups } from '../src/catalog/catalog.ts';
import { createDeps, type Deps } from './deps.ts';
import { createLogger, type Logger } from './ops/log.ts';
import { openContentStore } from './store/open-store.ts';
import { loadSessionSecret } from './auth/accounts.ts';
import { readBuiltCommit } from './store/content-sync.ts';
import { migrateSubmissions } from './submissions/migrate.ts';
import { startAlertTimer } from './members/alerts.ts';
import { startSignUpSweep } from './auth/sign-up-sweep.ts';
import type { DevLoop } from './dev/dev-loop.ts';

export interface RunningServer {
  server: Server;
  deps: Deps;
  url: string;
  /** The preview loop, when started with `dev` (`npm run dev`). */
  dev: DevLoop | undefined;
  close: () => Promise<void>;
}

/**
 * @param options.dev watch the content folder and reload open pages on a save (`npm run dev`, functions/dev/)
 * @param options.files the build's files, when the caller started reading them already (reads/catalog-files.ts)
 * @example const { url, close } = await startServer(loadConfig({ PORT: '0' }))
 */
export async function startServer(config: Config, log: Logger = createLogger(), options: { dev?: boolean; files?: Promise<CatalogFiles> } = {}): Promise<RunningServer> {
  const secret = await loadSessionSecret(config.dataDir, config.sessionSecret);
  // At once: the store's git commands run while the catalog is parsed. Both finish before a
  // failure is thrown, so a missing catalog never stops the store half-way through its
  // recovery; the catalog's error comes first, as when they ran one after the other.
  const catalogLoad = loadGeneratedCatalog(config.generatedDir, options.files);
  const storeOpen = openContentStore(config);
  const builtFromRead = readBuiltCommit(config.generatedDir);
  await Promise.allSettled([catalogLoad, storeOpen, builtFromRead]);
  const catalog = await catalogLoad;
  const store = await storeOpen;
  const builtFrom = await builtFromRead;
  // ioredis is only loaded when Redis is configured.
  const redis = config.redisUrl ? (await import('./ops/redis.ts')).connectRedis(config.redisUrl, log) : undefined;
  const remote = contentRemoteOf(config);
  const deps = createDeps(config, catalog, store, secret, log, redis);
  await deps.content.start(remote ? config.contentPullSeconds : 0, builtFrom);
  // Catch up with the remote at once rather than at the first interval.
  if (remote) void deps.content.pull().catch(() => undefined);
  // Old submissions out of the content repository (once), then the e-mail sweep: now and hourly.
  await migrateSubmissions(deps);
  await deps.submissions.start();
  // The accounts database now: its schema up to date, an old users.json moved in; the catalog is served even when it cannot be reached.
  await deps.auth.accounts.ready().catch((error: unknown) => log.warn('accounts_unavailable', { problem: String(error) }));
  const site = await openSite(deps);
  const stopAlerts = startAlertTimer(deps);
  const stopSignUpSweep = startSignUpSweep(deps);
  // Imported only for `npm run dev`: a served build never loads the preview loop.
  const dev = options.dev ? await (await import('./dev/dev-loop.ts')).startDevLoop(deps) : undefined;
  const server = createNodeServer(createApp(deps, { site: dev ? dev.site(site) : site }), { trustProxyHops: config.trustProxyHops, log });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      dev?.close();
      reject(error);
    });
    server.listen(config.port, config.host, () => resolve());
  });
  // Made once the server listens rather than before (docs/performance.md, fifteenth sitting): the
  // lookup maps (about 250 ms at 50,000 deals and 100,000 startups, one at a time), then the
  // pinned answers. A request that comes first makes what it needs itself.
  const state = deps.state();
  prepareLookups(state.catalog)
    .then(state.prepare)
    .catch((error: unknown) => log.warn('prepare_failed', { problem: String(error) }));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info('listening', { url, catalog: deps.state().catalog.version });
  return {
    server,
    deps,
    url,
    dev,
    close: async () => {
      stopAlerts();
      stopSignUpSweep();
      dev?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      deps.content.stop();
      // Notices under way finish first (each within its timeout): one may still delete an e-mail.
      await deps.notify.close();
      await deps.submissions.close();
      await deps.auth.accounts.close();
      deps.auth.mail.close();
      await redis?.close();
    },
  };
}
