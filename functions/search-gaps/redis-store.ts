/**
 * Search-gap counts in Redis, shared by every instance: per day a counter of searches and two
 * sorted sets (query → count) for zero and low outcomes, each expiring after RETAIN_DAYS.
 * Counting is best effort: while Redis is down a batch is not counted (and the outage is logged
 * once by the connection), and no search is refused or slowed.
 */
import type { Redis } from 'ioredis';
import { MAX_QUERIES_PER_DAY, RETAIN_DAYS, type DayGaps, type SearchGapStore } from './store.ts';

const TTL_SECONDS = (RETAIN_DAYS + 1) * 24 * 60 * 60;

/**
 * Count one query of a batch, unless the day's set is full and the query new (the same bound as
 * the memory store), in one atomic step. KEYS: the outcome's set; ARGV: ttl, max, query, count.
 */
const COUNT_QUERY_SCRIPT = `
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZINCRBY', KEYS[1], ARGV[4], ARGV[3])
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return 1
`;

export class RedisSearchGapStore implements SearchGapStore {
  private readonly redis: Redis;
  private readonly onError: (error: unknown) => void;

  constructor(redis: Redis, onError: (error: unknown) => void) {
    this.redis = redis;
    this.onError = onError;
  }

  /** One pipeline per batch (a batch holds about a second of searches: search-gaps.ts). */
  async add(batch: DayGaps): Promise<void> {
    try {
      const pipeline = this.redis.pipeline();
      const counters: [string, number][] = [
        ['searches', batch.searches],
        ['zero-searches', batch.zeroSearches],
        ['low-searches', batch.lowSearches],
      ];
      for (const [part, count] of counters) if (count > 0) pipeline.incrby(key(batch.day, part), count).expire(key(batch.day, part), TTL_SECONDS);
      for (const outcome of ['zero', 'low'] as const) {
        for (const [query, count] of batch[outcome]) pipeline.eval(COUNT_QUERY_SCRIPT, 1, key(batch.day, outcome), TTL_SECONDS, MAX_QUERIES_PER_DAY, query, count);
      }
      const replies = (await pipeline.exec()) ?? [];
      const failed = replies.find(([error]) => error);
      if (failed) throw failed[0];
    } catch (error) {
      this.onError(error);
    }
  }

  async read(days: readonly string[]): Promise<DayGaps[]> {
    const pipeline = this.redis.pipeline();
    for (const day of days) {
      pipeline.mget(key(day, 'searches'), key(day, 'zero-searches'), key(day, 'low-searches'));
      pipeline.zrange(key(day, 'zero'), '0', '-1', 'WITHSCORES').zrange(key(day, 'low'), '0', '-1', 'WITHSCORES');
    }
    const replies = (await pipeline.exec()) ?? [];
    const failed = replies.find(([error]) => error);
    if (failed) throw failed[0];
    return days.map((day, i) => {
      const [searches, zeroSearches, lowSearches] = (replies[i * 3]?.[1] as (string | null)[] | undefined) ?? [];
      return {
        day,
        searches: Number(searches ?? 0),
        zeroSearches: Number(zeroSearches ?? 0),
        lowSearches: Number(lowSearches ?? 0),
        zero: scores(replies[i * 3 + 1]?.[1]),
        low: scores(replies[i * 3 + 2]?.[1]),
      };
    });
  }
}

const key = (day: string, part: string): string => `search-gaps:${day}:${part}`;

/** A WITHSCORES reply (member, score, member, score, …) as a map. */
function scores(reply: unknown): Map<string, number> {
  const flat = Array.isArray(reply) ? (reply as string[]) : [];
  const map = new Map<string, number>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i] as string, Number(flat[i + 1]));
  return map;
}
