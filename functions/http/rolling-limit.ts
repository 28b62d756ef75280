/**
 * A rolling-window counter per key: at most `limit` recorded events in any `windowMs`
 * (SPEC: 5 accepted submissions per IP per hour). Checking and recording are separate, so
 * only accepted requests use up the budget (DESIGN "submission rate limit").
 */
export class RollingLimit {
  private readonly events = new Map<string, number[]>();
  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Whether one more event is allowed now; `retryAfterSeconds` says when, if not. */
  check(key: string, now: number): { allowed: boolean; remaining: number; retryAfterSeconds: number } {
    const recent = this.recent(key, now);
    const remaining = Math.max(0, this.limit - recent.length);
    const oldest = recent[0] ?? now;
    return { allowed: remaining > 0, remaining, retryAfterSeconds: remaining > 0 ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
  }

  record(key: string, now: number): void {
    this.events.set(key, [...this.recent(key, now), now]);
  }

  private recent(key: string, now: number): number[] {
    const kept = (this.events.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (kept.length === 0) this.events.delete(key);
    else this.events.set(key, kept);
    return kept;
  }
}
