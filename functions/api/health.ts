/**
 * GET /api/v1/health: liveness and what this instance serves: catalog version, the content
 * commit, whether the content store can take writes, whether the served catalog is up to date
 * with the content (and its remote), and the Redis link.
 */
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';

const started = Date.now();

export async function getHealth(request: Request, deps: Deps): Promise<Response> {
  const store = await deps.store.status();
  const redis = deps.redis ? deps.redis.status() : 'disabled';
  const sync = deps.content.status();
  const healthy = store.writable && redis !== 'down' && !sync.problem;
  const body = {
    success: true,
    status: healthy ? 'ok' : 'degraded',
    catalogVersion: deps.state().catalog.version,
    contentCommit: store.commit,
    store: { writable: store.writable, ...(store.problem ? { problem: store.problem } : {}) },
    content: {
      indexedCommit: sync.indexedCommit,
      remote: deps.config.contentRemote ?? null,
      ...(sync.lastPullAt ? { lastPullAt: sync.lastPullAt } : {}),
      ...(sync.problem ? { problem: sync.problem } : {}),
    },
    redis,
    deals: deps.state().catalog.deals.length,
    startups: deps.state().catalog.startups.length,
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
    memoryMb: { rss: Math.round(process.memoryUsage.rss() / 1048576), heapUsed: Math.round(process.memoryUsage().heapUsed / 1048576) },
  };
  return answerResponse(request, jsonAnswer(200, body, { 'Cache-Control': 'no-store' }));
}
