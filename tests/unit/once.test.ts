/**
 * `once` (src/catalog/once.ts): what the catalog makes on first use is made once, not before, and
 * a maker that throws is tried again on the next call.
 */
import { expect, test } from 'vitest';
import { once } from '../../src/catalog/once.ts';

test('the value is made at the first call, not before, and kept', () => {
  let made = 0;
  const value = once(() => ({ made: ++made }));
  expect(made).toBe(0);
  const first = value();
  expect(value()).toBe(first);
  expect(made).toBe(1);
});

test('an undefined value is kept too: the maker runs once', () => {
  let made = 0;
  const value = once(() => void made++);
  expect([value(), value()]).toEqual([undefined, undefined]);
  expect(made).toBe(1);
});

test('a maker that throws is called again on the next call', () => {
  let calls = 0;
  const value = once(() => {
    calls++;
    if (calls === 1) throw new Error('not yet');
    return 'made';
  });
  expect(() => value()).toThrow('not yet');
  expect(value()).toBe('made');
  expect(value()).toBe('made');
  expect(calls).toBe(2);
});
