/**
 * A rolling-window counter per key: at most `limit` recorded events in any `windowMs`
 * (SPEC: 5 accepted submissions per IP per hour). Checking and recording are separate, so only
 * accepted requests use up the budget (DESIGN "submission rate limit"). In memory by default;
 * in Redis (a sorted set per key) so several instances share it, falling back to memory when
 * Redis fails.
 */
import type { Redis } from 'ioredis';

export interface Budget {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RollingLimit {
  readonly limit: number;
  readonly windowMs: number;
  check(key: string, now: number): Promise<Budget>;
  record(key: string, now: number): Promise<void>;
}

/** Drop every expired key after this many records (keys are otherwise pruned only when seen again). */
const SWEEP_EVERY = 1000;

export class MemoryRollingLimit implements RollingLimit {
  private readonly events = new Map<string, number[]>();
  private recordsSinceSweep = 0;
  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  async check(key: string, now: number): Promise<Budget> {
    return budget(this.recent(key, now), this.limit, this.windowMs, now);
  }

  async record(key: string, now: number): Promise<void> {
    this.events.set(key, [...this.recent(key, now), now]);
    // Addresses and e-mails seen once would otherwise stay forever: sweep now and then.
    if (++this.recordsSinceSweep >= SWEEP_EVERY) {
      this.recordsSinceSweep = 0;
      for (const held of this.events.keys()) this.recent(held, now);
    }
  }

  /** How many keys have events inside the window (or have not been swept yet). */
  get size(): number {
    return this.events.size;
  }

  private recent(key: string, now: number): number[] {
    const kept = (this.events.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (kept.length === 0) this.events.delete(key);
    else this.events.set(key, kept);
    return kept;
  }
}

export class RedisRollingLimit implements RollingLimit {
  readonly limit: number;
  readonly windowMs: number;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly fallback: MemoryRollingLimit;
  private readonly onError: (error: unknown) => void;

  constructor(redis: Redis, prefix: string, limit: number, windowMs: number, onError: (error: unknown) => void) {
    this.redis = redis;
    this.prefix = prefix;
    this.limit = limit;
    this.windowMs = windowMs;
    this.fallback = new MemoryRollingLimit(limit, windowMs);
    this.onError = onError;
  }

  async check(key: string, now: number): Promise<Budget> {
    try {
      const redisKey = `${this.prefix}:${key}`;
      const [, entries] = (await this.redis.multi().zremrangebyscore(redisKey, 0, now - this.windowMs).zrange(redisKey, '0', '-1', 'WITHSCORES').exec()) ?? [];
      const list = (entries?.[1] as string[] | undefined) ?? [];
      const times = list.filter((_, i) => i % 2 === 1).map(Number);
      return budget(times, this.limit, this.windowMs, now);
    } catch (error) {
      this.onError(error);
      return this.fallback.check(key, now);
    }
  }

  async record(key: string, now: number): Promise<void> {
    await this.fallback.record(key, now);
    try {
      const redisKey = `${this.prefix}:${key}`;
      await this.redis.multi().zadd(redisKey, now, `${now}-${Math.random().toString(36).slice(2)}`).pexpire(redisKey, this.windowMs).exec();
    } catch (error) {
      this.onError(error);
    }
  }
}

// --- internal ---

function budget(times: readonly number[], limit: number, windowMs: number, now: number): Budget {
  const remaining = Math.max(0, limit - times.length);
  const oldest = Math.min(...times, now);
  return { allowed: remaining > 0, remaining, retryAfterSeconds: remaining > 0 ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
}
