/**
 * Netlify Functions (v2) adapter: a default export taking a Web `Request` and the platform
 * context (the function's entry, with its `config.path`, is netlify/functions/api.ts). The prebuilt indexes in `generated/` are bundled with the
 * function (netlify.toml, docs/deploying.md); the app is made once per warm instance, with
 * `serverless` set: many short-lived instances, no disk of their own. So:
 * - writes need a content store: with CONTENT_GIT_URL it is the git host over HTTPS
 *   (store/http-git-store.ts, a clone under /tmp per warm instance), and each commit asks the
 *   platform to rebuild the static pages (NETLIFY_BUILD_HOOK_URL); without it writes answer 503;
 * - limits that must hold across instances (submissions, sign-in) need REDIS_URL, else 503;
 * - sessions are signed with SESSION_SECRET, which every instance must share: required here;
 * - other instances' writes come in by a pull started by a request, at most every
 *   CONTENT_PULL_SECONDS (no timers run between requests).
 */
import { ConfigError, loadConfig } from '../config.ts';
import { loadSessionSecret } from '../auth/accounts.ts';
import { loadGeneratedCatalog } from '../reads/catalog-state.ts';
import { createDeps, type Deps } from '../deps.ts';
import { createApp, type App } from '../http/app.ts';
import { BytesResponse } from '../http/bytes-response.ts';
import { createLogger } from '../ops/log.ts';
import { connectRedis } from '../ops/redis.ts';
import { BuildHook, withBuildHook } from '../store/build-hook.ts';
import { readBuiltCommit } from '../store/content-sync.ts';
import { openContentStore } from '../store/open-store.ts';
import { openSubmissionStore } from '../submissions/open.ts';
import { openSite } from '../site/open-site.ts';

interface Loaded {
  app: App;
  deps: Deps;
  hook: BuildHook | undefined;
}

/**
 * What every function of this deploy runs on, read from the environment. `clone`: open the
 * content repository of CONTENT_GIT_URL (a clone under /tmp) for writes; without it the
 * bundled content and indexes are only read (the hourly jobs need no more).
 */
export async function openFunctionDeps(options: { clone: boolean }): Promise<{ deps: Deps; hook: BuildHook | undefined }> {
  const loaded = loadConfig();
  const config = { ...loaded, serverless: true, contentGit: options.clone ? loaded.contentGit : undefined };
  // A secret generated per instance would make a cookie good on one instance only.
  if (!config.sessionSecret) throw new ConfigError('SESSION_SECRET: required on a serverless function (every instance must verify the cookies the others sign)');
  const log = createLogger();
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log) : undefined;
  const secret = await loadSessionSecret(config.dataDir, config.sessionSecret);
  // No durable disk of its own: submissions go to DATABASE_URL, or are refused (503), never to a temporary folder.
  const submissions = openSubmissionStore(config, log, { localDisk: false });
  // Never CONTENT_REMOTE here: a function's bundled content folder is no clone to push from.
  const opened = await openContentStore({ ...config, contentRemote: undefined });
  const hook = config.buildHookUrl && config.contentGit ? new BuildHook(config.buildHookUrl, log) : undefined;
  const store = hook ? withBuildHook(opened, hook) : opened;
  return { deps: createDeps(config, await loadGeneratedCatalog(config.generatedDir), store, secret, log, redis, submissions), hook };
}

async function load(): Promise<Loaded> {
  const { deps, hook } = await openFunctionDeps({ clone: true });
  // The clone may be ahead of the bundled indexes (writes since the deploy): serve it from the first write on. No interval: see pullIfDue below.
  if (deps.config.contentGit) await deps.content.start(0, await readBuiltCommit(deps.config.generatedDir));
  // The on-demand pages (sign-in, sign-up, the member's pages, the submission form, search results) from the bundled dist/server.
  return { app: createApp(deps, { site: await openSite(deps) }), deps, hook };
}

/**
 * `start` once per warm instance, by its first request (or scheduled run). A start that failed
 * (a setting missing, a host down) is tried again by the next one, not kept for the instance's life.
 */
export function oncePerInstance<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () =>
    (started ??= start().catch((error: unknown) => {
      started = undefined;
      throw error;
    }));
}

const loadInstance = oncePerInstance(load);

/** The platform terminates TLS, so the URL's scheme is the client's; it names the client and the request. */
export default async function handler(request: Request, context: { ip?: string; requestId?: string; waitUntil?: (work: Promise<unknown>) => void }): Promise<Response> {
  const { app, deps, hook } = await loadInstance();
  // Commits other instances pushed: fetched after this answer, served from the next request on.
  const pulled = deps.config.contentGit ? deps.content.pullIfDue(deps.config.contentPullSeconds * 1000) : undefined;
  const response = await app.fetch(request, { address: context.ip ?? 'unknown', requestId: context.requestId });
  // Notices, the build hook and the pull finish after the answer: the platform keeps the function alive until they are done.
  context.waitUntil?.(Promise.all([deps.notify.settled(), deps.auth.mail.settled(), hook?.settled(), pulled]));
  // A plain Response for the platform, which may read bodies through Response internals rather than `body`.
  return response instanceof BytesResponse ? new Response(response.body, response) : response;
}
