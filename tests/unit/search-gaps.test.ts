/**
 * The search-gap counter (issue 13 item 4, docs/search-gaps.md): the text it keeps (folded,
 * scrubbed of what identifies a person), the outcome of a search by its matches, the report's
 * order, the metric, and one contract for both stores: in memory and in a real redis-server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { normaliseQuery, MAX_QUERY_CHARS } from '../../functions/search-gaps/normalise.ts';
import { RedisSearchGapStore } from '../../functions/search-gaps/redis-store.ts';
import { SearchGaps, summarise } from '../../functions/search-gaps/search-gaps.ts';
import { emptyDay, lastDays, MAX_QUERIES_PER_DAY, MemorySearchGapStore, RETAIN_DAYS, type DayGaps, type SearchGapStore } from '../../functions/search-gaps/store.ts';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.ts';

describe('normaliseQuery', () => {
  test.each([
    ['  Free AWS credits?? ', 'free aws credits'],
    ['Équity-free  ACCÉLÉRATEUR', 'equity free accelerateur'],
    ['notion\tdiscount\n', 'notion discount'],
    ['write to jane.doe+deals@example.com please', 'write to @email please'],
    ['call +44 20 7946 0958 now', 'call #number now'],
    ['card 4111-1111-1111-1111', 'card #number'],
    ['$100,000 in credits for 2026', '100 000 in credits for 2026'],
    ['Москва Fund', 'москва fund'],
  ])('%j is kept as %j', (text, kept) => {
    expect(normaliseQuery(text)).toBe(kept);
  });

  test('nothing searchable is not kept', () => {
    expect(normaliseQuery('  ?!… ')).toBeUndefined();
    expect(normaliseQuery('')).toBeUndefined();
  });

  test('a long query is cut at a word, within the bound', () => {
    const kept = normaliseQuery('credits '.repeat(100)) as string;
    expect(kept.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
    expect(kept.endsWith('credits')).toBe(true);
  });

  test('a typed @ or # inside a word is not mistaken for a placeholder', () => {
    expect(normaliseQuery('c#sharp tools a@b')).toBe('c sharp tools @email');
  });
});

describe('lastDays', () => {
  test('counts back across a month boundary', () => {
    expect(lastDays('2026-12-02', 3)).toEqual(['2026-12-02', '2026-12-01', '2026-11-30']);
  });
});

describe('SearchGaps', () => {
  test('outcome by matches: 0 is zero, 1–2 low, 3 and more found; only zero and low keep their text', async () => {
    const gaps = new SearchGaps(new MemorySearchGapStore(), () => '2026-11-23');
    gaps.note('Wedding photographer', 0);
    gaps.note('wedding  photographer!', 0);
    gaps.note('cdn', 2);
    gaps.note('aws credits', 3);
    gaps.note('   ', 0);
    const report = await gaps.report(7, 10);
    expect(report).toMatchObject({ from: '2026-11-17', to: '2026-11-23', searches: 4, zero: 2, low: 1 });
    expect(report.queries).toEqual([
      { query: 'wedding photographer', zero: 2, low: 0, lastSeen: '2026-11-23' },
      { query: 'cdn', zero: 0, low: 1, lastSeen: '2026-11-23' },
    ]);
  });

  test('the period covers only its days; older counts are out of the report', async () => {
    let today = '2026-11-01';
    const gaps = new SearchGaps(new MemorySearchGapStore(), () => today);
    gaps.note('old miss', 0);
    today = '2026-11-23';
    gaps.note('new miss', 0);
    expect((await gaps.report(7, 10)).queries.map((q) => q.query)).toEqual(['new miss']);
    expect((await gaps.report(30, 10)).queries.map((q) => q.query)).toEqual(['new miss', 'old miss']);
  });

  test('metrics: a counter by outcome and the top queries as labelled gauges', async () => {
    const gaps = new SearchGaps(new MemorySearchGapStore(), () => '2026-11-23');
    gaps.note('hubspt', 0);
    gaps.note('hubspt', 0);
    gaps.note('mongo', 1);
    gaps.note('aws', 10);
    const text = await gaps.metricsText();
    expect(text).toContain('search_queries_total{outcome="zero"} 2');
    expect(text).toContain('search_queries_total{outcome="low"} 1');
    expect(text).toContain('search_queries_total{outcome="found"} 1');
    expect(text).toContain('search_gap_queries{query="hubspt",outcome="zero"} 2');
    expect(text).toContain('search_gap_queries{query="mongo",outcome="low"} 1');
    expect(text).not.toContain('query="aws"');
  });
});

describe('summarise', () => {
  test('most frequent first (zero and low together), then most zero, then newest, then by text', () => {
    const day = (d: string, zero: [string, number][], low: [string, number][]) => ({ day: d, searches: 100, zeroSearches: 0, lowSearches: 0, zero: new Map(zero), low: new Map(low) });
    const report = summarise(
      [
        day(
          '2026-11-23',
          [
            ['b', 2],
            ['c', 1],
          ],
          [['a', 3]],
        ),
        day(
          '2026-11-22',
          [
            ['d', 2],
            ['e', 1],
          ],
          [['c', 1]],
        ),
      ],
      ['2026-11-23', '2026-11-22'],
      10,
    );
    expect(report.queries.map((q) => [q.query, q.zero, q.low, q.lastSeen])).toEqual([
      ['a', 0, 3, '2026-11-23'],
      ['b', 2, 0, '2026-11-23'],
      ['d', 2, 0, '2026-11-22'],
      ['c', 1, 1, '2026-11-23'],
      ['e', 1, 0, '2026-11-22'],
    ]);
    expect(report).toMatchObject({ from: '2026-11-22', to: '2026-11-23', searches: 200 });
  });
});

let redisServer: RedisServer;
let redis: Redis;
let redisErrors: unknown[] = [];
beforeAll(async () => {
  redisServer = await startRedisServer();
  redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis.disconnect();
  await redisServer.stop();
});

/** A batch of one search, as SearchGaps hands it over. */
function one(day: string, outcome: 'zero' | 'low' | 'found', query: string): DayGaps {
  const batch = emptyDay(day);
  batch.searches = 1;
  if (outcome === 'zero') batch.zeroSearches = 1;
  if (outcome === 'low') batch.lowSearches = 1;
  if (outcome !== 'found') batch[outcome].set(query, 1);
  return batch;
}

const stores: [string, () => Promise<SearchGapStore>][] = [
  ['memory', async () => new MemorySearchGapStore()],
  [
    'redis',
    async () => {
      await redis.flushall();
      redisErrors = [];
      return new RedisSearchGapStore(redis, (error) => redisErrors.push(error));
    },
  ],
];

describe.each(stores)('%s store', (_name, open) => {
  test('counts searches and outcomes per day; lists zero and low queries by text', async () => {
    const store = await open();
    await store.add(one('2026-11-23', 'zero', 'hubspt'));
    await store.add(one('2026-11-23', 'zero', 'hubspt'));
    await store.add(one('2026-11-23', 'low', 'cdn'));
    await store.add(one('2026-11-23', 'found', 'aws'));
    await store.add(one('2026-11-22', 'zero', 'hubspt'));
    const [today, yesterday] = await store.read(['2026-11-23', '2026-11-22']);
    expect(today).toMatchObject({ day: '2026-11-23', searches: 4, zeroSearches: 2, lowSearches: 1 });
    expect([...(today?.zero ?? [])]).toEqual([['hubspt', 2]]);
    expect([...(today?.low ?? [])]).toEqual([['cdn', 1]]);
    expect(yesterday).toMatchObject({ day: '2026-11-22', searches: 1, zeroSearches: 1 });
    expect(redisErrors).toEqual([]);
  });

  test(`a day lists at most ${MAX_QUERIES_PER_DAY} distinct queries; beyond, searches still count and known queries still grow`, async () => {
    const store = await open();
    // In two batches, as a busy day would hand them over.
    const first = emptyDay('2026-11-23');
    const second = emptyDay('2026-11-23');
    for (let i = 0; i < MAX_QUERIES_PER_DAY + 50; i++) {
      const batch = i < 3000 ? first : second;
      batch.searches++;
      batch.zeroSearches++;
      batch.zero.set(`q${i}`, 1);
    }
    await store.add(first);
    await store.add(second);
    await store.add(one('2026-11-23', 'zero', 'q0'));
    const [day] = await store.read(['2026-11-23']);
    expect(day?.zero.size).toBe(MAX_QUERIES_PER_DAY);
    expect(day?.zeroSearches).toBe(MAX_QUERIES_PER_DAY + 51);
    expect(day?.zero.get('q0')).toBe(2);
    expect(day?.zero.has(`q${MAX_QUERIES_PER_DAY}`)).toBe(false);
  });
});

test('memory store: days older than the retention are dropped', async () => {
  const store = new MemorySearchGapStore();
  await store.add(one('2026-10-01', 'zero', 'old'));
  await store.add(one(lastDays('2026-11-23', RETAIN_DAYS)[RETAIN_DAYS - 1] as string, 'zero', 'oldest kept'));
  await store.add(one('2026-11-23', 'zero', 'new'));
  expect((await store.read(['2026-10-01'])).length).toBe(0);
  expect((await store.read(lastDays('2026-11-23', RETAIN_DAYS))).flatMap((d) => [...d.zero.keys()]).sort()).toEqual(['new', 'oldest kept']);
});

test('redis store: keys expire after the retention; a failure is reported, never thrown', async () => {
  await redis.flushall();
  const failures: unknown[] = [];
  const store = new RedisSearchGapStore(redis, (error) => failures.push(error));
  await store.add(one('2026-11-23', 'zero', 'hubspt'));
  const ttl = await redis.ttl('search-gaps:2026-11-23:zero');
  expect(ttl).toBeGreaterThan(RETAIN_DAYS * 86_400);
  expect(ttl).toBeLessThanOrEqual((RETAIN_DAYS + 1) * 86_400);
  const closed = new Redis(redisServer.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  await new RedisSearchGapStore(closed, (error) => failures.push(error)).add(one('2026-11-23', 'zero', 'lost'));
  expect(failures).toHaveLength(1);
});
