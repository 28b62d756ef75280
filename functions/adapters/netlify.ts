/**
 * Netlify Functions (v2) adapter: a default export taking a Web `Request` and the platform
 * context, plus `config.path`. The prebuilt indexes in `generated/` are bundled with the
 * function (see docs/deploying.md); the app is made once per warm instance. Writes need a
 * content store: with CONTENT_GIT_URL it is the git host over HTTPS (store/http-git-store.ts, a
 * clone under /tmp per warm instance); without it a function has no git work tree, so writes
 * answer 503 there: run admin writes on a Node instance and let the functions redeploy from git.
 */
import { loadConfig } from '../config.ts';
import { loadSessionSecret } from '../auth/accounts.ts';
import { loadGeneratedCatalog } from '../reads/catalog-state.ts';
import { createDeps, type Deps } from '../deps.ts';
import { createApp, type App } from '../http/app.ts';
import { BytesResponse } from '../http/bytes-response.ts';
import { createLogger } from '../ops/log.ts';
import { connectRedis } from '../ops/redis.ts';
import { readBuiltCommit } from '../store/content-sync.ts';
import { openContentStore } from '../store/open-store.ts';
import { openSubmissionStore } from '../submissions/open.ts';

let loaded: Promise<{ app: App; deps: Deps }> | undefined;

async function load(): Promise<{ app: App; deps: Deps }> {
  const config = loadConfig();
  const log = createLogger();
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : undefined;
  const secret = await loadSessionSecret(config.dataDir, config.sessionSecret);
  // No durable disk of its own: submissions go to DATABASE_URL, or are refused (503), never to a temporary folder.
  const submissions = openSubmissionStore(config, log, { localDisk: false });
  // Never CONTENT_REMOTE here: a function's bundled content folder is no clone to push from.
  const store = await openContentStore({ ...config, contentRemote: undefined });
  const deps = createDeps(config, await loadGeneratedCatalog(config.generatedDir), store, secret, log, redis, submissions);
  // The clone may be ahead of the bundled indexes (writes since the deploy): serve it from the first write on. No interval: a function lives per request.
  if (config.contentGit) await deps.content.start(0, await readBuiltCommit(config.generatedDir));
  return { app: createApp(deps), deps };
}

/** The platform terminates TLS, so the URL's scheme is the client's; it names the client and the request. */
export default async function handler(request: Request, context: { ip?: string; requestId?: string; waitUntil?: (work: Promise<unknown>) => void }): Promise<Response> {
  loaded ??= load();
  const { app, deps } = await loaded;
  const response = await app.fetch(request, { address: context.ip ?? 'unknown', requestId: context.requestId });
  // Notices are sent after the answer: the platform keeps the function alive until they are done.
  context.waitUntil?.(deps.notify.settled());
  // A plain Response for the platform, which may read bodies through Response internals rather than `body`.
  return response instanceof BytesResponse ? new Response(response.body, response) : response;
}

export const config = { path: ['/api/*'] };
