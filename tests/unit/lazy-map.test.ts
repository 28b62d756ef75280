/**
 * The catalog's lookup maps are made on first use (src/catalog/lazy-map.ts): made once, not
 * before, and read as the Map of the same entries is.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { LazyMap } from '../../src/catalog/lazy-map.ts';

test('the entries are read once, at the first use, not before', () => {
  let made = 0;
  const map = new LazyMap<string, number>((into) => {
    made++;
    into.set('a', 1).set('b', 2);
  });
  expect(made).toBe(0);
  expect(map.get('a')).toBe(1);
  expect(map.has('c')).toBe(false);
  expect(map.size).toBe(2);
  expect([...map.keys()]).toEqual(['a', 'b']);
  expect(made).toBe(1);
});

test('it reads as the Map of the same entries: get, has, size, every iteration, later keys winning', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.integer())), fc.array(fc.string({ maxLength: 3 })), (entries, probes) => {
      const lazy = new LazyMap<string, number>((into) => entries.forEach(([key, value]) => into.set(key, value)));
      const plain = new Map(entries);
      for (const key of probes) {
        expect(lazy.get(key)).toBe(plain.get(key));
        expect(lazy.has(key)).toBe(plain.has(key));
      }
      expect(lazy.size).toBe(plain.size);
      expect([...lazy]).toEqual([...plain]);
      expect([...lazy.entries()]).toEqual([...plain.entries()]);
      expect([...lazy.values()]).toEqual([...plain.values()]);
      const seen: [string, number][] = [];
      lazy.forEach((value, key, map) => {
        expect(map).toBe(lazy);
        seen.push([key, value]);
      });
      expect(seen).toEqual([...plain]);
    }),
  );
});
