/**
 * The nesting pre-scan of request bodies (issue 11, item 2): `jsonDepthExceeds` counts `[`/`{`
 * over the raw text, outside string literals, so a body nested too deep is refused before
 * `JSON.parse` builds it. `readBody` runs it first: a body that is both too deep and not JSON
 * gets the depth error, which proves the parse never ran.
 */
import { describe, expect, test } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH, readBody } from '../../functions/http/request-body.ts';
import { ApiError } from '../../functions/http/errors.ts';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('jsonDepthExceeds', () => {
  test('the limit is inclusive: `limit` levels pass, one more fails, for arrays and objects alike', () => {
    expect(jsonDepthExceeds(nested(32), 32)).toBe(false);
    expect(jsonDepthExceeds(nested(33), 32)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
    expect(jsonDepthExceeds('[{"a":[{"b":[]}]}]', 5)).toBe(false);
    expect(jsonDepthExceeds('[{"a":[{"b":[]}]}]', 4)).toBe(true);
  });

  test('depth is the deepest point, not the number of containers', () => {
    expect(jsonDepthExceeds(`[${Array(1000).fill('[[]]').join(',')}]`, 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[1,2],"b":{"c":[3]},"d":[[4]]}', 3)).toBe(false);
  });

  test('scalars and empty text have no depth', () => {
    for (const text of ['', '1', '"x"', 'null', 'true', '   ']) expect(jsonDepthExceeds(text, 0), text).toBe(false);
  });

  test('brackets inside string literals do not count', () => {
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[[[[[[{{{{{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify(['[', '{', ']]]]', '}}}}']), 1)).toBe(false);
  });

  test('an escaped quote does not end the string; an escaped backslash before a quote does', () => {
    // "\"[[[" is one string: the brackets are inside it.
    expect(jsonDepthExceeds(JSON.stringify({ a: '"[[[[' }), 1)).toBe(false);
    // "\\" ends after the escaped backslash, so the brackets after it are structure.
    expect(jsonDepthExceeds(String.raw`{"a":"\\","b":[[[]]]}`, 3)).toBe(true);
    expect(jsonDepthExceeds(String.raw`{"a":"\\\"[[[[","b":[]}`, 2)).toBe(false);
    expect(jsonDepthExceeds(String.raw`{"a":"\u005b\u005b","b":[]}`, 2)).toBe(false);
  });

  test('agrees with the parsed value on random JSON (the pre-scan is exact for valid JSON)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const value = (depth: number): unknown => {
      const pick = random();
      if (depth > 12 || pick < 0.3) return ['[{', '"\\"]', 1.5, null, true, '\\', '}]"'][Math.floor(random() * 7)];
      const items = Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return pick < 0.65 ? items : Object.fromEntries(items.map((item, i) => [`k${i}[{"`, item]));
    };
    const depthOf = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    for (let i = 0; i < 300; i++) {
      const v = value(0);
      const text = JSON.stringify(v);
      const depth = depthOf(v);
      expect(jsonDepthExceeds(text, depth), text).toBe(false);
      if (depth > 0) expect(jsonDepthExceeds(text, depth - 1), text).toBe(true);
    }
  });

  test('120,000 levels are refused in a few milliseconds, however the text ends', () => {
    for (const text of [nested(120_000), '['.repeat(120_000), '{"a":'.repeat(120_000)]) {
      const started = performance.now();
      expect(jsonDepthExceeds(text, MAX_JSON_DEPTH)).toBe(true);
      expect(performance.now() - started).toBeLessThan(50);
    }
  });
});

describe('readBody refuses a deep body before parsing it', () => {
  const post = (body: string) => new Request('http://x/api/v1/submit-deal', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const refusal = async (body: string) => {
    const thrown = await readBody(post(body)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(ApiError);
    const { status, code, message } = thrown as ApiError;
    return { status, code, message };
  };

  test('a 240 KB body of 120,000 nested arrays is 400 bad_request naming the depth', async () => {
    expect(await refusal(nested(120_000))).toMatchInlineSnapshot(`
      {
        "code": "bad_request",
        "message": "The request body nests deeper than 32 levels.",
        "status": 400,
      }
    `);
  });

  test('100,000 unclosed `[` (not JSON at all) get the depth error, not the parse error: no parse ran', async () => {
    expect((await refusal('['.repeat(100_000))).message).toBe(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  });

  test('at the limit the body still parses; malformed shallow JSON is still the parse error', async () => {
    expect(await readBody(post(nested(MAX_JSON_DEPTH)))).toHaveLength(1);
    expect(await readBody(post(JSON.stringify({ a: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' })))).toEqual({ a: '['.repeat(40) });
    expect(await refusal('{"a": [1, 2')).toMatchObject({ status: 400, message: 'The request body is not valid JSON.' });
  });
});
