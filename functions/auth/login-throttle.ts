/**
 * The sign-in throttle. Failures are counted per (address, e-mail) pair, per address and per
 * e-mail, each in a rolling 15-minute window:
 * - the pair limit (5) stops one client guessing one account;
 * - the address limit (20) stops one client spraying many accounts;
 * - the e-mail ceiling (100) is much higher, so a stranger cannot lock a known admin out from
 *   another address: they would need 20 addresses at 5 guesses each, every 15 minutes.
 * Every attempt reserves its place before the password is checked (parallel guesses cannot
 * all pass one check), and a success gives its places back and clears the pair's failures.
 */
import { limitKey } from '../http/limit-key.ts';
import type { Reservation, RollingLimit } from '../http/rolling-limit.ts';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_LIMITS = { pair: 5, address: 20, email: 100 } as const;

type Scope = keyof typeof LOGIN_LIMITS;

/** The places one attempt holds, to give back on success. */
export interface LoginAttempt {
  held: { scope: Scope; key: string; token: string | undefined }[];
}

export class LoginThrottle {
  private readonly limits: Record<Scope, RollingLimit>;

  /** @param make a rolling limit (memory, or Redis shared by instances) for a key prefix and size */
  constructor(make: (prefix: string, limit: number, windowMs: number) => RollingLimit) {
    this.limits = {
      pair: make('login-pair', LOGIN_LIMITS.pair, LOGIN_WINDOW_MS),
      address: make('login-address', LOGIN_LIMITS.address, LOGIN_WINDOW_MS),
      email: make('login-email', LOGIN_LIMITS.email, LOGIN_WINDOW_MS),
    };
  }

  /**
   * Reserve one failure place on each key before checking a password; when any is full the
   * others are given back and the attempt is refused with the longest wait.
   */
  async begin(address: string, email: string, now: number): Promise<{ attempt: LoginAttempt } | { retryAfterSeconds: number }> {
    const client = limitKey(address);
    const keys: [Scope, string][] = [
      ['pair', `${client}|${email}`],
      ['address', client],
      ['email', email],
    ];
    const places: Reservation[] = await Promise.all(keys.map(([scope, key]) => this.limits[scope].reserve(key, now)));
    const held = keys.map(([scope, key], i) => ({ scope, key, token: places[i]?.token }));
    if (places.every((p) => p.allowed)) return { attempt: { held } };
    await this.giveBack(held);
    return { retryAfterSeconds: Math.max(...places.filter((p) => !p.allowed).map((p) => p.retryAfterSeconds)) };
  }

  /** The password was right: give every place back and forget the pair's failures. */
  async succeeded(attempt: LoginAttempt): Promise<void> {
    await this.giveBack(attempt.held);
    const pair = attempt.held.find((h) => h.scope === 'pair');
    if (pair) await this.limits.pair.clear(pair.key);
  }

  /** The request was not a guess (malformed): give the places back. */
  async abandon(attempt: LoginAttempt): Promise<void> {
    await this.giveBack(attempt.held);
  }

  // --- internal ---

  private async giveBack(held: LoginAttempt['held']): Promise<void> {
    await Promise.all(held.filter((h) => h.token !== undefined).map((h) => this.limits[h.scope].release(h.key, h.token)));
  }
}
