/**
 * Sessions ended by signing out. A signed cookie stays valid until it expires, so sign-out
 * records the session's id here until that expiry and every request checks it. In memory by
 * default; in Redis when configured, so a sign-out on one instance holds on all of them (the
 * local memory keeps its own copy, which still answers while Redis is down).
 */
import type { Redis } from 'ioredis';

export interface Revocations {
  /** End the session `sid` (it expires at `expSeconds`, Unix seconds). */
  revoke(sid: string, expSeconds: number, nowSeconds: number): Promise<void>;
  isRevoked(sid: string, nowSeconds: number): Promise<boolean>;
}

export class MemoryRevocations implements Revocations {
  private readonly ended = new Map<string, number>();

  async revoke(sid: string, expSeconds: number, nowSeconds: number): Promise<void> {
    // Only live sessions need remembering: sweep the expired ones on each sign-out.
    for (const [id, exp] of this.ended) if (exp <= nowSeconds) this.ended.delete(id);
    this.ended.set(sid, expSeconds);
  }

  async isRevoked(sid: string, nowSeconds: number): Promise<boolean> {
    const exp = this.ended.get(sid);
    return exp !== undefined && exp > nowSeconds;
  }
}

export class RedisRevocations implements Revocations {
  private readonly local = new MemoryRevocations();
  private readonly redis: Redis;
  private readonly onError: (error: unknown) => void;

  constructor(redis: Redis, onError: (error: unknown) => void) {
    this.redis = redis;
    this.onError = onError;
  }

  async revoke(sid: string, expSeconds: number, nowSeconds: number): Promise<void> {
    await this.local.revoke(sid, expSeconds, nowSeconds);
    // The key lives exactly as long as the cookie could.
    await this.redis.set(key(sid), '1', 'EXAT', Math.max(expSeconds, nowSeconds + 1)).catch(this.onError);
  }

  async isRevoked(sid: string, nowSeconds: number): Promise<boolean> {
    if (await this.local.isRevoked(sid, nowSeconds)) return true;
    try {
      return (await this.redis.exists(key(sid))) === 1;
    } catch (error) {
      this.onError(error);
      return false;
    }
  }
}

const key = (sid: string): string => `session-revoked:${sid}`;
