/**
 * Netlify Functions (v2) adapter: a default export taking a Web `Request` and the platform
 * context, plus `config.path`. The prebuilt indexes in `generated/` are bundled with the
 * function (see docs/deploying.md); the catalog loads once per warm instance. Writes need a
 * git work tree, which a function does not have, so they answer 503 there: run admin writes
 * on a Node instance and let the functions redeploy from git.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config.ts';
import { loadSessionSecret } from '../auth/accounts.ts';
import { loadGeneratedCatalog } from '../catalog-state.ts';
import { createDeps, type Deps } from '../deps.ts';
import { setRequestContext } from '../http/client-address.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { connectRedis } from '../redis.ts';
import { handleApi } from '../router.ts';
import { GitStore } from '../store/git-store.ts';
import { openSubmissionStore } from '../submissions/open.ts';

let deps: Promise<Deps> | undefined;

async function load(): Promise<Deps> {
  const config = loadConfig();
  const { createLogger } = await import('../log.ts');
  const redis = config.redisUrl ? connectRedis(config.redisUrl, createLogger()) : undefined;
  const secret = await loadSessionSecret(config.dataDir, config.sessionSecret);
  // No durable disk of its own: submissions go to DATABASE_URL, or are refused (503), never to a temporary folder.
  const submissions = openSubmissionStore(config, createLogger(), { localDisk: false });
  return createDeps(config, await loadGeneratedCatalog(config.generatedDir), await GitStore.open(config.contentDir), secret, undefined, redis, submissions);
}

export default async function handler(request: Request, context: { ip?: string; requestId?: string }): Promise<Response> {
  deps ??= load();
  const requestId = context.requestId ?? randomUUID();
  setRequestContext(request, { address: context.ip ?? 'unknown', requestId });
  const response = await handleApi(request, await deps);
  // The same headers as the Node adapter (SECURITY.md); the platform terminates TLS, so the URL's scheme is the client's.
  for (const [name, value] of Object.entries(securityHeaders(new URL(request.url).protocol === 'https:'))) response.headers.set(name, value);
  response.headers.set('X-Request-Id', requestId);
  return response;
}

export const config = { path: ['/api/*'] };
