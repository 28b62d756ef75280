/**
 * GET /api/v1/health: liveness and what this instance serves. Anyone gets the status, short
 * problem codes and what the API shows anyway (catalog version, counts). The details (content
 * commit, store and sync problems in full, the content remote, Redis, the process) name file
 * paths, git's error output and the remote's host, path and maybe credentials, so they go only
 * to a client on this machine or an admin session (issue 11, item 10).
 */
import { currentSession, type SessionDeps } from '../auth/guard.ts';
import { contentRemoteOf } from '../config.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import type { RequestContext } from '../http/app.ts';
import { isLoopbackAddress } from '../http/loopback.ts';
import type { ContentStore } from '../store/content-store.ts';

import type { HEALTH_PROBLEMS } from '../../src/schemas/answers.ts';

const started = Date.now();

/** One of `HEALTH_PROBLEMS`. */
export type HealthProblem = (typeof HEALTH_PROBLEMS)[number];

/** GET /api/v1/health: the summary for anyone, the details for this machine or an admin. */
export async function getHealth(request: Request, deps: SessionDeps & Pick<Deps, 'store' | 'redis' | 'content' | 'config'>, context: RequestContext): Promise<Response> {
  const store = await sharedStatus(deps.store);
  const redis = deps.redis ? deps.redis.status() : 'disabled';
  const sync = deps.content.status();
  const problems: HealthProblem[] = [];
  if (!store.writable) problems.push('store_unwritable');
  // content-sync.ts words its problems "pull failed: …" or "content at <commit> does not build: …".
  if (sync.problem) problems.push(sync.problem.startsWith('pull') ? 'content_pull_failed' : sync.problem.startsWith('content') ? 'content_invalid' : 'content_stale');
  if (redis === 'down') problems.push('redis_down');
  const { catalog } = deps.state();
  const summary = { success: true, status: problems.length === 0 ? 'ok' : 'degraded', problems, catalogVersion: catalog.version, deals: catalog.dealJson.length, startups: catalog.startupJson.length };
  if (!(await mayReadDetails(request, deps, context))) return answerResponse(request, jsonAnswer(200, summary, { 'Cache-Control': 'no-store' }));
  const body = {
    ...summary,
    contentCommit: store.commit,
    store: { writable: store.writable, ...(store.problem ? { problem: store.problem } : {}) },
    content: {
      indexedCommit: sync.indexedCommit,
      remote: contentRemoteOf(deps.config) ?? null,
      ...(sync.lastPullAt ? { lastPullAt: sync.lastPullAt } : {}),
      ...(sync.problem ? { problem: sync.problem } : {}),
    },
    redis,
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
    memoryMb: { rss: Math.round(process.memoryUsage.rss() / 1048576), heapUsed: Math.round(process.memoryUsage().heapUsed / 1048576) },
  };
  return answerResponse(request, jsonAnswer(200, body, { 'Cache-Control': 'no-store' }));
}

// --- internal ---

/**
 * The store's status for every health request that asks while it is being read: reading it
 * runs git (`rev-parse HEAD`), and health answers anyone, so a flood of concurrent health
 * requests would start a git process each. A request after the read has settled reads afresh,
 * so health never reports an old state (content-sync reads the store's own status, unshared).
 */
const statusReads = new WeakMap<ContentStore, ReturnType<ContentStore['status']>>();
function sharedStatus(store: ContentStore): ReturnType<ContentStore['status']> {
  let reading = statusReads.get(store);
  if (!reading) {
    reading = store.status().finally(() => statusReads.delete(store));
    statusReads.set(store, reading);
  }
  return reading;
}

/** A client on this machine (behind a trusted proxy: the client it names) or an admin session. */
async function mayReadDetails(request: Request, deps: SessionDeps, context: RequestContext): Promise<boolean> {
  if (isLoopbackAddress(context.address)) return true;
  return (await currentSession(request, deps))?.role === 'admin';
}
