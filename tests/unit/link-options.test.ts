/**
 * How the link checker is told what to do and how politely: `--resolve` entries
 * (functions/links/resolve-map.ts), the command line (scripts/_link-options.ts), the waits before a
 * retry (backoff.ts) and the per-host and overall limits (host-gate.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { parseLinkOptions, UsageError } from '../../scripts/_link-options.ts';
import { DEFAULT_BACKOFF, retryDelay } from '../../functions/links/backoff.ts';
import { hostGate } from '../../functions/links/host-gate.ts';
import { destinationOf, parseResolve } from '../../functions/links/resolve-map.ts';

describe('--resolve', () => {
  test('host:port:address[:port], the host’s own entry before `*`', () => {
    const map = parseResolve(['*:443:127.0.0.1:8443', 'Deals.Example:443:127.0.0.2', 'v6.example:80:[::1]:8080']);
    expect(destinationOf(map, new URL('https://deals.example/x'))).toEqual({ address: '127.0.0.2', port: 443 });
    expect(destinationOf(map, new URL('https://other.example/'))).toEqual({ address: '127.0.0.1', port: 8443 });
    expect(destinationOf(map, new URL('http://v6.example/'))).toEqual({ address: '::1', port: 8080 });
    expect(destinationOf(map, new URL('http://other.example/'))).toBeUndefined();
  });

  test.each(['deals.example:443', 'deals.example:443:not-an-ip', 'deals.example:0:127.0.0.1', 'deals.example:443:127.0.0.1:99999'])('%s is refused', (entry) => {
    expect(() => parseResolve([entry])).toThrow(`--resolve ${entry}: expected host:port:address[:port], such as deals.example:443:127.0.0.1:8443`);
  });
});

describe('the command line', () => {
  test('defaults: 8 in flight, 2 per host, 10 s, 2 retries, no --fail-on', () => {
    expect(parseLinkOptions([])).toEqual({
      contentDir: undefined,
      out: undefined,
      only: undefined,
      concurrency: 8,
      perHost: 2,
      timeoutMs: 10_000,
      retries: 2,
      resolve: new Map(),
      failOn: new Set(),
      help: false,
    });
  });

  test('every option', () => {
    const options = parseLinkOptions([
      'content',
      '--out',
      '/tmp/r',
      '--only',
      'a, b',
      '--concurrency',
      '4',
      '--per-host',
      '1',
      '--timeout',
      '2.5',
      '--retries',
      '0',
      '--fail-on',
      'gone,tls',
      '--resolve',
      '*:443:127.0.0.1:9',
    ]);
    expect(options).toMatchObject({ contentDir: 'content', out: '/tmp/r', only: new Set(['a', 'b']), concurrency: 4, perHost: 1, timeoutMs: 2500, retries: 0, failOn: new Set(['gone', 'tls']) });
    expect(options.resolve.get('*:443')).toEqual({ address: '127.0.0.1', port: 9 });
  });

  test.each([
    [['--timeout', '0'], '--timeout 0: expected a number from 0.1 to 300'],
    [['--per-host', '1.5'], '--per-host 1.5: expected a whole number from 1 to 16'],
    [['--only', ','], '--only: expected slugs, such as --only aws-activate-founders,stripe-atlas'],
    [['--fail-on', 'ok,dead'], '--fail-on dead: expected verdicts among ok, moved, gone, soft-404, home-redirect, parked, timeout, tls, error'],
    [['a', 'b'], 'one content folder at most, got a b'],
    [['--colour'], "Unknown option '--colour'"],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseLinkOptions(argv)).toThrow(UsageError);
    expect(() => parseLinkOptions(argv)).toThrow(message);
  });
});

describe('retry waits', () => {
  test('exponential with equal jitter, capped', () => {
    expect([1, 2, 3].map((attempt) => retryDelay(attempt, undefined, DEFAULT_BACKOFF, () => 1))).toEqual([1000, 2000, 4000]);
    expect(retryDelay(1, undefined, DEFAULT_BACKOFF, () => 0)).toBe(500);
    expect(retryDelay(10, undefined, DEFAULT_BACKOFF, () => 1)).toBe(30_000);
  });

  test('Retry-After in seconds or as a date, honoured up to the cap; beyond it, no retry', () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    expect(retryDelay(1, '5', DEFAULT_BACKOFF)).toBe(5000);
    expect(retryDelay(1, 'Mon, 23 Nov 2026 06:00:20 GMT', DEFAULT_BACKOFF, Math.random, now)).toBe(20_000);
    expect(retryDelay(1, '3600', DEFAULT_BACKOFF)).toBeUndefined();
    expect(retryDelay(1, 'soon', DEFAULT_BACKOFF, () => 1)).toBe(1000);
  });
});

test('the host gate: at most `perHost` tasks of a host and `overall` in all at once', async () => {
  const gate = hostGate(2, 3);
  const running = new Map<string, number>();
  let most = { host: 0, all: 0 };
  const task = (host: string) =>
    gate(host, async () => {
      running.set(host, (running.get(host) ?? 0) + 1);
      const all = [...running.values()].reduce((a, b) => a + b, 0);
      most = { host: Math.max(most.host, running.get(host) ?? 0), all: Math.max(most.all, all) };
      await sleep(5);
      running.set(host, (running.get(host) ?? 1) - 1);
    });
  await Promise.all([...Array(6).keys()].flatMap(() => [task('a.example'), task('b.example')]));
  expect(most).toEqual({ host: 2, all: 3 });
});
