/**
 * The one cache of prepared answers (reads/prepared-cache.ts): bounded by entries and bytes,
 * keys counted (issue 11, item 8: long URLs made keys outweigh the answers), and an entry is
 * only ever answered for the catalog version it was made for.
 */
import { describe, expect, test } from 'vitest';
import { PreparedCache } from '../../functions/reads/prepared-cache.ts';

const cache = (maxBytes: number, options: { maxEntries?: number; answers?: boolean } = {}) =>
  new PreparedCache({ maxEntries: options.maxEntries ?? 10_000, maxBytes, answers: options.answers ?? true });

describe('PreparedCache', () => {
  test('long keys count toward the byte bound, which is never exceeded', () => {
    const maxBytes = 64 * 1024;
    const prepared = cache(maxBytes);
    const keyLength = 4000;
    // 100 small values under long keys: about 400 KB of keys against a 64 KiB bound.
    for (let i = 0; i < 100; i++) prepared.set('answer', `${String(i).padStart(4, '0')}${'k'.repeat(keyLength - 4)}`, 'v1', 'ten bytes!', 10);
    const entrySize = 'answer '.length + keyLength + 10;
    expect(prepared.bytesUsed).toBeLessThanOrEqual(maxBytes);
    expect(prepared.bytesUsed).toBe(prepared.size * entrySize);
    expect(prepared.size).toBe(Math.floor(maxBytes / entrySize));
  });

  test('fits says what set keeps: up to a quarter of the bound, key counted', () => {
    const prepared = cache(4000);
    const limit = 1000 - 'answer k'.length;
    expect(prepared.fits('answer', 'k', limit)).toBe(true);
    expect(prepared.fits('answer', 'k', limit + 1)).toBe(false);
    prepared.set('answer', 'k', 'v1', 'kept', limit);
    prepared.set('answer', 'l', 'v1', 'refused', limit + 1);
    expect(prepared.get('answer', 'k', 'v1')).toBe('kept');
    expect(prepared.get('answer', 'l', 'v1')).toBeUndefined();
  });

  test('the entry bound holds too, least recently used first out', () => {
    const prepared = cache(1024 * 1024, { maxEntries: 2 });
    prepared.set('answer', 'a', 'v1', 'A', 1);
    prepared.set('answer', 'b', 'v1', 'B', 1);
    expect(prepared.get('answer', 'a', 'v1')).toBe('A');
    prepared.set('answer', 'c', 'v1', 'C', 1);
    expect([prepared.get('answer', 'a', 'v1'), prepared.get('answer', 'b', 'v1'), prepared.get('answer', 'c', 'v1')]).toEqual(['A', undefined, 'C']);
  });

  test('an entry answers only for its catalog version, and a newer version replaces it', () => {
    const prepared = cache(1024);
    prepared.set('response', '/api/v1/deals?limit=1', 'v1', 'old', 3);
    expect(prepared.get('response', '/api/v1/deals?limit=1', 'v2')).toBeUndefined();
    prepared.set('response', '/api/v1/deals?limit=1', 'v2', 'new', 3);
    expect(prepared.get('response', '/api/v1/deals?limit=1', 'v2')).toBe('new');
    expect(prepared.get('response', '/api/v1/deals?limit=1', 'v1')).toBeUndefined();
    expect(prepared.size).toBe(1);
  });

  test('kinds do not share keys', () => {
    const prepared = cache(1024);
    prepared.set('answer', '/deals/', 'v1', 'an answer', 9);
    prepared.set('page', '/deals/', 'v1', 'a page', 6);
    expect([prepared.get('answer', '/deals/', 'v1'), prepared.get('page', '/deals/', 'v1')]).toEqual(['an answer', 'a page']);
  });

  test('an entry over a quarter of the bound is not kept', () => {
    const prepared = cache(1000);
    prepared.set('answer', 'k'.repeat(300), 'v1', 'v', 1);
    prepared.set('page', '/big/', 'v1', 'big', 260);
    expect(prepared.size).toBe(0);
    expect(prepared.bytesUsed).toBe(0);
  });

  test('with the answer cache off, answers and responses are not kept, live pages are', () => {
    const prepared = cache(1024, { answers: false });
    prepared.set('answer', 'a', 'v1', 'A', 1);
    prepared.set('response', 'a', 'v1', 'A', 1);
    prepared.set('page', '/deals/', 'v1', 'P', 1);
    expect([prepared.get('answer', 'a', 'v1'), prepared.get('response', 'a', 'v1'), prepared.get('page', '/deals/', 'v1')]).toEqual([undefined, undefined, 'P']);
  });
});
