/**
 * The fast path of `readYaml` (yaml.ts): front matter as nearly every content file writes it,
 * top-level `key: value` lines and lists of `- value` items under a key, read line by line.
 * Anything else (nested maps, block or multi-line scalars, comments after a value, flow
 * collections, tags, anchors, tabs, CRs, a duplicate key) is left to the `yaml` package, which
 * also words every problem: this path never reports one.
 *
 * Why it exists, measured (docs/performance.md, twenty-first sitting): the `yaml` package's
 * parse was half of a content file's check, and most of a 50,000-deal build's time; this path
 * takes about a tenth of the package's time per front matter. Plain values are resolved by
 * the package's own core-schema tags, so `0x1F`, `1e3`, `~` or `.inf` read as they do there;
 * tests/unit/yaml-flat.test.ts compares both readers over the sample content and thousands
 * of generated documents.
 */
import { isScalar, Schema, type ScalarTag } from 'yaml';
import type { YamlReading } from './yaml.ts';

/** What `readYaml` gives for such a text, or undefined when the text is not in this flat form. */
export function readFlatYaml(text: string): YamlReading | undefined {
  if (OUTSIDE_FLAT_FORM.test(text)) return undefined;
  const data: Record<string, unknown> = {};
  const keyLines = new Map<string, number>();
  /** The key whose value is still open (written `key:` with nothing after it), and its list once an item came. */
  let openKey: string | undefined;
  let list: unknown[] | undefined;
  let listIndent = 0;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const indent = leadingSpaces(line);
    if (indent === line.length || line.charCodeAt(indent) === HASH) continue; // blank or a comment line
    if (line.charCodeAt(line.length - 1) === SPACE) return undefined;
    if (line.charCodeAt(indent) === DASH && (line.length === indent + 1 || line.charCodeAt(indent + 1) === SPACE)) {
      if (openKey === undefined || (list !== undefined && indent !== listIndent)) return undefined;
      if (list === undefined) {
        list = [];
        listIndent = indent;
        data[openKey] = list;
      }
      const afterDash = line.slice(indent + 1);
      const item = plainOrQuoted(afterDash.slice(leadingSpaces(afterDash)));
      if (item === NOT_FLAT) return undefined;
      list.push(item);
      continue;
    }
    const pair = indent === 0 ? KEY_LINE.exec(line) : null;
    if (!pair) return undefined;
    const key = pair[1]!;
    if (keyLines.has(key) || resolvedTag(key)) return undefined;
    keyLines.set(key, index + 1);
    openKey = undefined;
    list = undefined;
    const written = pair[2];
    if (written === undefined) {
      // Nothing after the colon: null, unless list items follow.
      data[key] = null;
      openKey = key;
      continue;
    }
    const value = plainOrQuoted(written);
    if (value === NOT_FLAT) return undefined;
    data[key] = value;
  }
  if (keyLines.size === 0) return undefined;
  return { ok: true, data, keyLines };
}

// --- internal ---

const SPACE = 0x20;
const DASH = 0x2d;
const HASH = 0x23;
const SINGLE_QUOTE = 0x27;
const DOUBLE_QUOTE = 0x22;

/** Tabs, CRs, control and C1 characters, a BOM, Unicode line separators: the `yaml` package decides. */
// eslint-disable-next-line no-control-regex
const OUTSIDE_FLAT_FORM = /[\0-\x09\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]/;

/** `key:` or `key: value` at the start of a line. */
const KEY_LINE = /^([A-Za-z][A-Za-z0-9_-]{0,127}):(?: +(.+))?$/;

/** Characters a plain value cannot start with (YAML's indicators); quotes are read below. */
const INDICATOR_START = /^[?:,[\]{}#&*!|>%@`]/;

const DOUBLE_QUOTED = /^"([^"\\]*)"$/;

const NOT_FLAT = Symbol('not flat');

/** The core schema's tags that a plain value is tested against, in the package's order. */
const CORE_TAGS = (new Schema({ schema: 'core', resolveKnownTags: false }).tags as ScalarTag[]).filter((tag) => tag.default === true && tag.test !== undefined);
const RESOLVE_OPTIONS = { intAsBigInt: false };

function leadingSpaces(line: string): number {
  let count = 0;
  while (line.charCodeAt(count) === SPACE) count++;
  return count;
}

/** The tag a plain value resolves by, when it is not a string. */
function resolvedTag(plain: string): ScalarTag | undefined {
  return CORE_TAGS.find((tag) => tag.test!.test(plain));
}

/** A value written on one line: quoted without escapes, or plain as the package would read it. */
function plainOrQuoted(written: string): unknown {
  const first = written.charCodeAt(0);
  if (first === SINGLE_QUOTE) {
    // Checked by hand, not by a regular expression: V8 keeps a backtrack entry per character
    // of `(?:[^']|'')*` and ran out of stack on a value of 8 million characters.
    const inner = written.slice(1, -1);
    if (written.length < 2 || written.charCodeAt(written.length - 1) !== SINGLE_QUOTE || inner.replaceAll("''", '').includes("'")) return NOT_FLAT;
    return inner.replaceAll("''", "'");
  }
  if (first === DOUBLE_QUOTE) return DOUBLE_QUOTED.exec(written)?.[1] ?? NOT_FLAT;
  if (written === '' || INDICATOR_START.test(written) || (first === DASH && (written.length === 1 || written.charCodeAt(1) === SPACE))) return NOT_FLAT;
  if (written.includes(': ') || written.endsWith(':') || written.includes(' #')) return NOT_FLAT;
  const tag = resolvedTag(written);
  if (!tag) return written;
  try {
    const resolved = tag.resolve(
      written,
      () => {
        throw new Error('not resolved');
      },
      RESOLVE_OPTIONS,
    );
    return isScalar(resolved) ? resolved.value : resolved;
  } catch {
    return NOT_FLAT;
  }
}
