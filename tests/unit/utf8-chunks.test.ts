/**
 * The build writes its biggest files as UTF-8 chunks (src/catalog/utf8-chunks.ts): joined, they
 * are exactly what `JSON.stringify` gives, whatever the value and however deep the chunking goes.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { jsonChunks, Utf8Chunks } from '../../src/catalog/utf8-chunks.ts';

const joined = (chunks: Iterable<Buffer>): string => Buffer.concat([...chunks]).toString();

describe('jsonChunks', () => {
  test('any JSON value, chunked to any depth, joins to JSON.stringify', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, levels) => {
        expect(joined(jsonChunks(value, levels))).toBe(JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
  });

  test('members JSON.stringify leaves out, nulls in arrays, toJSON and text outside ASCII', () => {
    const value = {
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 1, 1, 'é🚀'],
      when: new Date(0),
      nested: { deeper: { deepest: [1, { a: undefined, b: 2 }] } },
      日本: '語',
    };
    for (let levels = 0; levels < 6; levels++) expect(joined(jsonChunks(value, levels))).toBe(JSON.stringify(value));
  });

  test('a value of several MiB comes in chunks of about one MiB', () => {
    const postings = { deals: { terms: Array.from({ length: 40_000 }, (_, i) => `term${i}`), postings: Array.from({ length: 40_000 }, (_, i) => [[0, [i, i + 1], [1.5, 2.25]]]) } };
    const chunks = [...jsonChunks(postings, 3)];
    expect(chunks.length).toBeGreaterThan(1);
    expect(Math.max(...chunks.map((chunk) => chunk.byteLength))).toBeLessThan(1.1 * 1024 * 1024);
    expect(joined(chunks)).toBe(JSON.stringify(postings));
  });
});

describe('Utf8Chunks', () => {
  test('counts bytes, not characters', () => {
    const out = new Utf8Chunks();
    out.add('é');
    out.add('🚀');
    expect(out.offset).toBe(6);
    expect(out.flush().toString()).toBe('é🚀');
  });

  test('a text longer than a chunk comes through whole, and a chunk handed out keeps its bytes', () => {
    const out = new Utf8Chunks();
    out.add('a'.repeat(1000));
    const long = 'é🚀x'.repeat(400_000); // 2.8 MiB of UTF-8, past the buffer's room
    out.add(long);
    expect(out.full).toBe(true);
    const first = out.flush();
    expect(first.toString()).toBe('a'.repeat(1000) + long);
    expect(out.offset).toBe(1000 + Buffer.byteLength(long));
    out.add('z'.repeat(2000));
    out.add('\ud800 lone');
    const second = out.flush();
    expect(second.toString()).toBe(`${'z'.repeat(2000)}\ufffd lone`);
    expect(first.toString()).toBe('a'.repeat(1000) + long);
    expect(out.offset).toBe(1000 + Buffer.byteLength(long) + 2000 + Buffer.byteLength('\ud800 lone'));
  });
});
