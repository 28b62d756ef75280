/**
 * Rate limits on every `/api` route (DESIGN "general rate limit"), with rate-limiter-flexible:
 * in memory by default, in Redis when REDIS_URL is set so several instances share one budget.
 * If Redis fails, each instance falls back to its own memory limits (logged), never a 500.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
// The three classes from their own files: the package's index loads a limiter for every store it supports (functions/vendor-modules.d.ts).
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { Logger } from '../ops/log.ts';
import { limitKey } from './limit-key.ts';

/** Per-route policies, per client address (DESIGN: generous for reads, tighter for sign-in and writes). */
export const RATE_POLICIES = {
  read: { points: 6000, seconds: 60 },
  mcp: { points: 1200, seconds: 60 },
  a2a: { points: 1200, seconds: 60 },
  submit: { points: 60, seconds: 60 },
  auth: { points: 30, seconds: 60 },
  write: { points: 300, seconds: 60 },
} as const;

export type PolicyName = keyof typeof RATE_POLICIES;

export interface RateDecision {
  policy: PolicyName;
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
}

/** Which policy limits a request to a route below `/api/v1` (or `/api`). */
export function policyFor(path: string, method: string): PolicyName {
  if (path === '/mcp') return 'mcp';
  if (path === '/a2a') return 'a2a';
  if (path.startsWith('/auth/')) return 'auth';
  if (path === '/submit-deal') return 'submit';
  if (path.startsWith('/admin/') || (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS')) return 'write';
  return 'read';
}

/** The RateLimit fields for a decision (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const { points, seconds } = RATE_POLICIES[decision.policy];
  return {
    'RateLimit-Policy': `"${decision.policy}";q=${points};w=${seconds}`,
    RateLimit: `"${decision.policy}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}

export class RateLimits {
  private readonly limiters = new Map<PolicyName, RateLimiterAbstract>();
  private readonly enabled: boolean;
  /** The one decision per policy while limits are off: every request allowed, the full budget left. */
  private readonly unlimited = new Map<PolicyName, RateDecision>();

  /** With `enabled` false every request is allowed (for benchmarks against a baseline). */
  constructor(options: { enabled: boolean; redis?: Redis | undefined; log: Logger }) {
    this.enabled = options.enabled;
    for (const [name, { points, seconds }] of Object.entries(RATE_POLICIES) as [PolicyName, { points: number; seconds: number }][]) {
      this.unlimited.set(name, Object.freeze({ policy: name, allowed: true, remaining: points, resetSeconds: seconds }));
      const memory = new RateLimiterMemory({ keyPrefix: `rl-${name}`, points, duration: seconds });
      this.limiters.set(
        name,
        options.redis ? new RateLimiterRedis({ storeClient: options.redis, keyPrefix: `rl-${name}`, points, duration: seconds, insuranceLimiter: memory, rejectIfRedisNotReady: true }) : memory,
      );
    }
  }

  /**
   * Count one request of a client address (IPv6: its /64) against a policy. Limits off, the
   * policy's fixed decision (frozen), at once: no promise for a request nothing is counted for.
   */
  consume(policy: PolicyName, address: string): RateDecision | Promise<RateDecision> {
    return this.enabled ? this.counted(policy, address) : (this.unlimited.get(policy) as RateDecision);
  }

  private async counted(policy: PolicyName, address: string): Promise<RateDecision> {
    const key = limitKey(address);
    const limiter = this.limiters.get(policy) as RateLimiterAbstract;
    try {
      const result = await limiter.consume(key);
      return { policy, allowed: true, remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { policy, allowed: false, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      // The insurance limiter should have answered; if even that failed, let the request through.
      return { policy, allowed: true, remaining: 0, resetSeconds: RATE_POLICIES[policy].seconds };
    }
  }
}
