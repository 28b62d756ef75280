/**
 * How long the link checker waits before trying a URL again: what the server asked for in
 * `Retry-After` (RFC 9110 §10.2.3: seconds or a date) when it asked, within a cap, else an
 * exponential backoff with jitter, so several links of one slow site are not retried in step.
 */

export interface Backoff {
  /** The first wait; each further try waits twice as long. */
  baseMs: number;
  /** The longest wait the backoff grows to. */
  capMs: number;
  /** The longest `Retry-After` honoured: a site asking for more is not tried again in this run. */
  retryAfterCapMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, capMs: 30_000, retryAfterCapMs: 60_000 };

/**
 * @param attempt the tries made so far (1 after the first)
 * @param retryAfter the last answer's `Retry-After` header, if any
 * @returns milliseconds to wait, or undefined when the server asked for longer than the cap
 * @example retryDelay(2, undefined, DEFAULT_BACKOFF, () => 1) // 2000
 * @example retryDelay(1, '5', DEFAULT_BACKOFF) // 5000
 */
export function retryDelay(attempt: number, retryAfter: string | undefined, backoff: Backoff, random: () => number = Math.random, now: number = Date.now()): number | undefined {
  const asked = retryAfter === undefined ? undefined : retryAfterMs(retryAfter.trim(), now);
  if (asked !== undefined) return asked <= backoff.retryAfterCapMs ? asked : undefined;
  const exponential = Math.min(backoff.capMs, backoff.baseMs * 2 ** (attempt - 1));
  // "Equal jitter": between half and all of the exponential wait.
  return Math.round(exponential * (0.5 + random() / 2));
}

// --- internal ---

/** A number of seconds or an HTTP date, as milliseconds from now; undefined when it is neither. */
function retryAfterMs(value: string, now: number): number | undefined {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
