/**
 * JavaScript text with the characters outside ASCII that esbuild leaves (in comments and regular
 * expressions; it escapes strings and names itself) written as `\u` escapes, so that the server
 * bundle is ASCII throughout. V8 holds a source with a single character above U+00FF as two bytes
 * per character, and Node's compile cache converts such a source to UTF-8 before hashing it: at
 * 24 such lines in 4 MB, importing the bundle took 159–185 ms against 143–158 ms once they were
 * escaped (docs/performance.md, twenty-second sitting).
 *
 * The text is parsed with acorn, so only comments and regular expression literals are touched,
 * each in a way that keeps its meaning. Anything else (a template literal, whose raw text a tag may
 * read) is left as it is, and the text then stays partly non-ASCII: slower to load, never wrong.
 */
import { parse, tokTypes, type Token } from 'acorn';

/** A stretch of the text to escape: a comment, or a regular expression literal and whether it has the `u` or `v` flag. */
interface Stretch {
  start: number;
  end: number;
  regexp?: { unicode: boolean };
}

/**
 * @example asciiSource('// a → b\nconst quote = /’/u;') // '// a \\u2192 b\nconst quote = /\\u{2019}/u;'
 */
export function asciiSource(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const stretches: Stretch[] = [];
  parse(text, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    onComment: (_block, _text, start, end) => stretches.push({ start, end }),
    onToken: ({ type, start, end }: Token) => {
      if (type !== tokTypes.regexp) return;
      // The flags follow the literal's last slash.
      const flags = text.slice(text.lastIndexOf('/', end - 1) + 1, end);
      stretches.push({ start, end, regexp: { unicode: /[uv]/.test(flags) } });
    },
  });
  let out = '';
  let copied = 0;
  for (const { start, end, regexp } of stretches.sort((a, b) => a.start - b.start)) {
    const piece = text.slice(start, end);
    if (!NON_ASCII.test(piece)) continue;
    out += text.slice(copied, start) + (regexp ? escapedRegExp(piece, regexp.unicode) : escapedComment(piece));
    copied = end;
  }
  return out + text.slice(copied);
}

const NON_ASCII = /[^\0-\x7f]/;

/** A comment's characters outside ASCII as `\uXXXX`: text only, read by no one but people. */
function escapedComment(comment: string): string {
  return comment.replace(/[^\0-\x7f]/g, (char) => codeUnits(char));
}

/**
 * A regular expression literal's characters outside ASCII as escapes that match the same: a code
 * point as `\u{…}` with the `u` or `v` flag (a pair of surrogate escapes would also do), a code
 * unit as `\uXXXX` without (where a character beyond the BMP is two units anyway). A character
 * escaped with a backslash (`\’`, an identity escape) loses that backslash, which is what the
 * escape meant.
 */
function escapedRegExp(literal: string, unicode: boolean): string {
  return literal.replace(/(\\*)([^\0-\x7f])/gu, (_match, slashes: string, char: string) => {
    const escaped = unicode ? `\\u{${(char.codePointAt(0) as number).toString(16)}}` : codeUnits(char);
    // An odd run of backslashes ends in one that escapes this character.
    return (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + escaped;
  });
}

/** `\uXXXX` for each UTF-16 code unit of `char`. */
function codeUnits(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
