/**
 * A rolling-window counter per key: at most `limit` events in any `windowMs` (SPEC: 5 accepted
 * submissions per IP per hour; the sign-in throttle). A request reserves its place before any
 * work is done, in one atomic step, so parallel requests cannot all pass a check that each saw
 * before the others recorded; an outcome that should not count (an invalid submission, a
 * successful sign-in) releases its reservation afterwards. In memory by default; in Redis (a
 * sorted set per key, reserved by one Lua script) so several instances share it, falling back to
 * memory when Redis fails.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ApiError } from './errors.ts';

export interface Budget {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

/** A reserved place in the window (`token` names it for `release`), or a refusal. */
export interface Reservation extends Budget {
  token?: string;
}

export interface RollingLimit {
  readonly limit: number;
  readonly windowMs: number;
  /** Look without counting. */
  check(key: string, now: number): Promise<Budget>;
  /** Atomically: refuse when `limit` events are in the window, otherwise record one and allow. */
  reserve(key: string, now: number): Promise<Reservation>;
  /** Take back a reservation whose outcome should not count. */
  release(key: string, token: string | undefined): Promise<void>;
  /** Forget every event of a key (a successful sign-in resets its failures). */
  clear(key: string): Promise<void>;
}

/** Drop every expired key after this many reservations (keys are otherwise pruned only when seen again). */
const SWEEP_EVERY = 1000;

interface Event {
  at: number;
  token: string;
}

export class MemoryRollingLimit implements RollingLimit {
  private readonly events = new Map<string, Event[]>();
  private reservedSinceSweep = 0;
  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  async check(key: string, now: number): Promise<Budget> {
    return budget(
      this.recent(key, now).map((e) => e.at),
      this.limit,
      this.windowMs,
      now,
    );
  }

  /** Synchronous inside: nothing can run between the count and the record. */
  async reserve(key: string, now: number): Promise<Reservation> {
    const held = this.recent(key, now);
    if (held.length >= this.limit)
      return budget(
        held.map((e) => e.at),
        this.limit,
        this.windowMs,
        now,
      );
    const token = newToken();
    this.events.set(key, [...held, { at: now, token }]);
    // Addresses and e-mails seen once would otherwise stay forever: sweep now and then.
    if (++this.reservedSinceSweep >= SWEEP_EVERY) {
      this.reservedSinceSweep = 0;
      for (const seen of this.events.keys()) this.recent(seen, now);
    }
    return { allowed: true, remaining: this.limit - held.length - 1, retryAfterSeconds: 0, token };
  }

  async release(key: string, token: string | undefined): Promise<void> {
    const held = this.events.get(key);
    if (!held || token === undefined) return;
    const kept = held.filter((e) => e.token !== token);
    if (kept.length === 0) this.events.delete(key);
    else this.events.set(key, kept);
  }

  async clear(key: string): Promise<void> {
    this.events.delete(key);
  }

  /** How many keys have events inside the window (or have not been swept yet). */
  get size(): number {
    return this.events.size;
  }

  private recent(key: string, now: number): Event[] {
    const kept = (this.events.get(key) ?? []).filter((e) => e.at > now - this.windowMs);
    if (kept.length === 0) this.events.delete(key);
    else this.events.set(key, kept);
    return kept;
  }
}

/**
 * Count and record in one step on the Redis server, so instances sharing it cannot race.
 * Returns [allowed (1/0), events now in the window, oldest event's time].
 */
const RESERVE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[1]) - tonumber(ARGV[2]))
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, tonumber(oldest[2])}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, count + 1, 0}
`;

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
      const [, entries] =
        (await this.redis
          .multi()
          .zremrangebyscore(redisKey, 0, now - this.windowMs)
          .zrange(redisKey, '0', '-1', 'WITHSCORES')
          .exec()) ?? [];
      const list = (entries?.[1] as string[] | undefined) ?? [];
      return budget(list.filter((_, i) => i % 2 === 1).map(Number), this.limit, this.windowMs, now);
    } catch (error) {
      this.onError(error);
      return this.fallback.check(key, now);
    }
  }

  async reserve(key: string, now: number): Promise<Reservation> {
    // The local memory keeps its own count too, so an outage later still finds this event.
    const local = await this.fallback.reserve(key, now);
    const token = local.token ?? newToken();
    try {
      const [allowed, count, oldest] = (await this.redis.eval(RESERVE_SCRIPT, 1, `${this.prefix}:${key}`, now, this.windowMs, this.limit, token)) as [number, number, number];
      if (allowed === 1) return { allowed: true, remaining: Math.max(0, this.limit - count), retryAfterSeconds: 0, token };
      await this.fallback.release(key, local.token);
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    } catch (error) {
      this.onError(error);
      return local;
    }
  }

  async release(key: string, token: string | undefined): Promise<void> {
    await this.fallback.release(key, token);
    if (token === undefined) return;
    await this.redis.zrem(`${this.prefix}:${key}`, token).catch(this.onError);
  }

  async clear(key: string): Promise<void> {
    await this.fallback.clear(key);
    await this.redis.del(`${this.prefix}:${key}`).catch(this.onError);
  }
}

/**
 * A limit that must hold across instances where none is shared (a serverless function without
 * REDIS_URL): counting in one instance's memory would let each instance take its own budget, so
 * every request relying on it is refused with 503 instead.
 */
export class UnsharedRollingLimit implements RollingLimit {
  readonly limit: number;
  readonly windowMs: number;
  private readonly prefix: string;

  constructor(prefix: string, limit: number, windowMs: number) {
    this.prefix = prefix;
    this.limit = limit;
    this.windowMs = windowMs;
  }

  check(): Promise<Budget> {
    return Promise.reject(this.refusal());
  }

  reserve(): Promise<Reservation> {
    return Promise.reject(this.refusal());
  }

  async release(): Promise<void> {}

  async clear(): Promise<void> {}

  private refusal(): ApiError {
    return new ApiError(
      503,
      'service_unavailable',
      `Not available on this deployment: its limit (${this.prefix}, ${this.limit} per ${this.windowMs / 60_000} minutes) must be shared by every serverless instance, and no Redis is configured.`,
      {
        hint: 'The site operator sets REDIS_URL for the functions (docs/deploying.md, Serverless).',
        headers: { 'Retry-After': '3600' },
      },
    );
  }
}

// --- internal ---

function newToken(): string {
  return randomBytes(9).toString('base64url');
}

function budget(times: readonly number[], limit: number, windowMs: number, now: number): Budget {
  const remaining = Math.max(0, limit - times.length);
  const oldest = Math.min(...times, now);
  return { allowed: remaining > 0, remaining, retryAfterSeconds: remaining > 0 ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
}
