/**
 * The server bundle's text made ASCII (scripts/_ascii-source.ts): comments and regular
 * expression literals escaped so that they mean the same, everything else left as it was.
 */
import { describe, expect, test } from 'vitest';
import { asciiSource } from '../../scripts/_ascii-source.ts';

const ASCII = /^[\0-\x7f]*$/;

/** The value of a JavaScript expression. */
function valueOf(expression: string): unknown {
  return new Function(`return (${expression});`)() as unknown;
}

describe('asciiSource', () => {
  test('text already in ASCII comes back as it is', () => {
    const text = 'const a = 1 / 2; // half\n/* none */ export { a };';
    expect(asciiSource(text)).toBe(text);
  });

  test('comments are escaped and the code around them is untouched', () => {
    const text = '// a → b — “c”\nconst x = 4 / 2; /* § 4.2 … 😀 */ export { x };';
    const out = asciiSource(text);
    expect(out).toMatch(ASCII);
    expect(out).toBe('// a \\u2192 b \\u2014 \\u201cc\\u201d\nconst x = 4 / 2; /* \\u00a7 4.2 \\u2026 \\ud83d\\ude00 */ export { x };');
  });

  test.each([
    ['/[’]/', ['’', "'", 'x']],
    ['/[’]/u', ['’', "'", 'x']],
    ['/[.\\-_’+]/gu', ['’', '-', 'a']],
    ['/[\\ud800-￿]/', ['\ud800', '￿', 'a', 'é']],
    ['/😀+/', ['😀', '😀😀', '\ud83d\ude00\ude00', 'x']],
    ['/😀+/u', ['😀', '😀😀', '\ud83d\ude00\ude00', 'x']],
    ['/[😀é]/v', ['😀', 'é', 'e']],
    ['/a\\’b/', ['a’b', 'a\\’b', 'ab']],
    ['/a\\\\’b/', ['a\\’b', 'a’b']],
  ])('the regular expression %s matches as before', (literal, samples) => {
    const out = asciiSource(`export const pattern = ${literal};`);
    expect(out).toMatch(ASCII);
    const before = valueOf(literal) as RegExp;
    const after = valueOf(out.slice('export const pattern = '.length, -1)) as RegExp;
    expect(after.flags).toBe(before.flags);
    for (const sample of samples) expect(after.test(sample), sample).toBe(before.test(sample));
  });

  test('strings and template literals are left as they are (a tag may read a template’s raw text)', () => {
    const text = "const s = 'é'; const t = String.raw`→${s}`; /* é */";
    const out = asciiSource(text);
    expect(out).toBe("const s = 'é'; const t = String.raw`→${s}`; /* \\u00e9 */");
    expect(out).not.toMatch(ASCII);
  });

  test('a division is not taken for a regular expression', () => {
    const text = 'const ratio = total / count / 2; // ÷ twice\nconst r = /÷/;';
    expect(asciiSource(text)).toBe('const ratio = total / count / 2; // \\u00f7 twice\nconst r = /\\u00f7/;');
  });
});
