/**
 * The optional Redis connection (REDIS_URL) that several instances share for rate limits.
 * Commands fail fast while it is down (no offline queue), and outages are logged once each.
 */
import { Redis } from 'ioredis';
import type { Logger } from './log.ts';

export interface RedisLink {
  client: Redis;
  /** Report a failed command; logs the first failure of an outage. */
  failed: (error: unknown) => void;
  status: () => 'ok' | 'down';
  close: () => Promise<void>;
}

/**
 * @example const redis = connectRedis(process.env.REDIS_URL, log)
 */
export function connectRedis(url: string, log: Logger): RedisLink {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 250, 2000),
  });
  let down = false;
  const failed = (error: unknown) => {
    if (!down) log.warn('redis_unavailable', { error: error instanceof Error ? error.message : String(error), fallback: 'per-instance memory limits' });
    down = true;
  };
  client.on('error', failed);
  client.on('ready', () => {
    if (down) log.info('redis_recovered');
    down = false;
  });
  return {
    client,
    failed,
    status: () => (client.status === 'ready' && !down ? 'ok' : 'down'),
    close: async () => {
      client.disconnect();
    },
  };
}
