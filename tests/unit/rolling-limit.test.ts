/**
 * The in-memory rolling window behind the submission limit and the sign-in throttle (SPEC:
 * 5 per IP per hour): exact counting at the window's edge, Retry-After from the oldest event,
 * reservations that are atomic and can be given back, memory that does not keep keys seen once,
 * and the IPv6 /64 key.
 */
import { describe, expect, test } from 'vitest';
import { LOGIN_LIMITS, LoginThrottle } from '../../functions/auth/login-throttle.ts';
import { limitKey } from '../../functions/http/limit-key.ts';
import { MemoryRollingLimit } from '../../functions/http/rolling-limit.ts';

const HOUR = 3_600_000;

describe('MemoryRollingLimit', () => {
  test('5 reservations use up the budget; the 6th is refused until the oldest leaves the window', async () => {
    const limit = new MemoryRollingLimit(5, HOUR);
    for (let i = 0; i < 5; i++) {
      const place = await limit.reserve('a', i * 1000);
      expect(place).toMatchObject({ allowed: true, remaining: 4 - i });
    }
    expect(await limit.reserve('a', 10_000)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 3590 });
    expect((await limit.check('a', HOUR - 1)).allowed).toBe(false);
    expect(await limit.check('a', HOUR)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect((await limit.check('b', 10_000)).remaining).toBe(5);
  });

  test('checking alone uses nothing', async () => {
    const limit = new MemoryRollingLimit(1, HOUR);
    for (let i = 0; i < 10; i++) expect((await limit.check('a', i)).allowed).toBe(true);
  });

  test('parallel reservations cannot overshoot: 10 at once, exactly 5 allowed', async () => {
    const limit = new MemoryRollingLimit(5, HOUR);
    const places = await Promise.all(Array.from({ length: 10 }, () => limit.reserve('a', 0)));
    expect(places.filter((p) => p.allowed)).toHaveLength(5);
  });

  test('a released reservation gives its place back; clear forgets the key', async () => {
    const limit = new MemoryRollingLimit(2, HOUR);
    const first = await limit.reserve('a', 0);
    await limit.reserve('a', 1);
    expect((await limit.reserve('a', 2)).allowed).toBe(false);
    await limit.release('a', first.token);
    expect((await limit.reserve('a', 3)).allowed).toBe(true);
    await limit.clear('a');
    expect((await limit.check('a', 4)).remaining).toBe(2);
  });

  test('keys whose events have all expired are swept, even if they are never seen again', async () => {
    const limit = new MemoryRollingLimit(5, HOUR);
    for (let i = 0; i < 999; i++) await limit.reserve(`once-${i}`, 0);
    expect(limit.size).toBe(999);
    await limit.reserve('later', HOUR + 1);
    expect(limit.size).toBe(1);
  });
});

describe('LoginThrottle', () => {
  const throttle = () => new LoginThrottle((_prefix, limit, windowMs) => new MemoryRollingLimit(limit, windowMs));

  test('the per-e-mail ceiling: 100 failures spread over 20 addresses lock the e-mail; 99 do not', async () => {
    const t = throttle();
    for (let i = 0; i < LOGIN_LIMITS.email - 1; i++) expect('attempt' in (await t.begin(`10.0.0.${i % 20}`, 'ada@example.com', 0))).toBe(true);
    expect('attempt' in (await t.begin('10.0.1.1', 'ada@example.com', 0))).toBe(true);
    const refused = await t.begin('10.0.1.2', 'ada@example.com', 0);
    expect(refused).toEqual({ retryAfterSeconds: 900 });
  });

  test('a refused attempt holds no place anywhere (the other keys are given back)', async () => {
    const t = throttle();
    for (let i = 0; i < LOGIN_LIMITS.pair; i++) await t.begin('10.0.0.1', 'ada@example.com', 0);
    for (let i = 0; i < 20; i++) expect('attempt' in (await t.begin('10.0.0.1', 'ada@example.com', 0))).toBe(false);
    // The address has used 5 of its 20, not 25: 15 more e-mails can still be tried from it.
    for (let i = 0; i < LOGIN_LIMITS.address - LOGIN_LIMITS.pair; i++) expect('attempt' in (await t.begin('10.0.0.1', `x${i}@example.com`, 0))).toBe(true);
    expect('attempt' in (await t.begin('10.0.0.1', 'y@example.com', 0))).toBe(false);
  });
});

describe('limitKey', () => {
  test('IPv6 clients are keyed by their /64; IPv4 and mapped IPv4 by the address', () => {
    expect(limitKey('2001:db8:1:2:aaaa::1')).toBe(limitKey('2001:db8:1:2:ffff:eeee:dddd:1'));
    expect(limitKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8:1:3::1')).not.toBe(limitKey('2001:db8:1:2::1'));
    expect(limitKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(limitKey('unknown')).toBe('unknown');
  });
});
