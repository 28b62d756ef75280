/**
 * The in-memory rolling window behind the submission limit and the sign-in throttle (SPEC:
 * 5 per IP per hour): exact counting at the window's edge, Retry-After from the oldest event,
 * and memory that does not keep keys seen once.
 */
import { describe, expect, test } from 'vitest';
import { MemoryRollingLimit } from '../../functions/http/rolling-limit.ts';

const HOUR = 3_600_000;

describe('MemoryRollingLimit', () => {
  test('5 recorded events use up the budget; the 6th is refused until the oldest leaves the window', async () => {
    const limit = new MemoryRollingLimit(5, HOUR);
    for (let i = 0; i < 5; i++) {
      expect((await limit.check('a', i * 1000)).allowed).toBe(true);
      await limit.record('a', i * 1000);
    }
    expect(await limit.check('a', 10_000)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 3590 });
    expect((await limit.check('a', HOUR - 1)).allowed).toBe(false);
    expect(await limit.check('a', HOUR)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect((await limit.check('b', 10_000)).remaining).toBe(5);
  });

  test('checking alone uses nothing (only accepted requests count)', async () => {
    const limit = new MemoryRollingLimit(1, HOUR);
    for (let i = 0; i < 10; i++) expect((await limit.check('a', i)).allowed).toBe(true);
  });

  test('keys whose events have all expired are swept, even if they are never seen again', async () => {
    const limit = new MemoryRollingLimit(5, HOUR);
    for (let i = 0; i < 999; i++) await limit.record(`once-${i}`, 0);
    expect(limit.size).toBe(999);
    await limit.record('later', HOUR + 1);
    expect(limit.size).toBe(1);
  });
});
