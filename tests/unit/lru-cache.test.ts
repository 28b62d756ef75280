/**
 * The bounded LRU behind the answer caches (issue 11, item 8): a key is memory the cache
 * keeps as surely as its value, so the byte bound counts keys too. Without that, a client
 * sending long query strings filled a 64 MiB cache with hundreds of megabytes of keys.
 */
import { describe, expect, test } from 'vitest';
import { LruCache } from '../../functions/http/lru-cache.ts';

describe('LruCache byte accounting', () => {
  test('long keys count toward the byte bound, which is never exceeded', () => {
    const maxBytes = 64 * 1024;
    const cache = new LruCache<string>(10_000, maxBytes, (value) => value.length);
    const keyLength = 4000;
    // 100 small values under long keys: about 400 KB of keys against a 64 KiB bound.
    for (let i = 0; i < 100; i++) cache.set(`${String(i).padStart(4, '0')}${'k'.repeat(keyLength - 4)}`, 'ten bytes!');
    expect(cache.bytesUsed).toBeLessThanOrEqual(maxBytes);
    expect(cache.bytesUsed).toBe(cache.size * (keyLength + 10));
    expect(cache.size).toBe(Math.floor(maxBytes / (keyLength + 10)));
  });

  test('replacing a value under the same key does not count its key twice', () => {
    const cache = new LruCache<string>(10, 1000, (value) => value.length);
    cache.set('key', 'abc');
    cache.set('key', 'abcdef');
    expect(cache.bytesUsed).toBe(3 + 6);
    cache.clear();
    expect(cache.bytesUsed).toBe(0);
  });

  test('an entry whose key alone is over a quarter of the bound is not kept', () => {
    const cache = new LruCache<string>(10, 1000, (value) => value.length);
    cache.set('k'.repeat(300), 'v');
    expect(cache.size).toBe(0);
    expect(cache.bytesUsed).toBe(0);
  });
});
