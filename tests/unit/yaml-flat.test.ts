/**
 * The flat fast path of `readYaml` (src/pipeline/yaml-flat.ts) against the `yaml` package it
 * stands in for: over the sample content and thousands of generated documents full of YAML's
 * corners, whatever the fast path reads must be exactly what the package reads (values, their
 * types, key order, key lines), and what it cannot read it must leave to the package.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../scripts/seeded-random.ts';
import { readFlatYaml } from '../../src/pipeline/yaml-flat.ts';
import { readYaml, readYamlDocument, type YamlReading } from '../../src/pipeline/yaml.ts';

const CONTENT = resolve(import.meta.dirname, '../../content');

/**
 * A value spelled out so that two readings compare exactly: key order, prototypes, NaN, -0 and
 * every type told apart. (Equality helpers read an own `constructor` key as the object's class.)
 */
function spelled(value: unknown): unknown {
  if (Array.isArray(value)) return ['array', ...value.map(spelled)];
  if (typeof value === 'object' && value !== null) return ['object', Object.getPrototypeOf(value) === Object.prototype, Object.entries(value).map(([key, item]) => [key, spelled(item)])];
  if (typeof value === 'number') return `${Object.is(value, -0) ? '-0' : String(value)}:number`;
  return [typeof value, value];
}

function comparable(reading: YamlReading): unknown {
  return reading.ok ? { data: spelled(reading.data), keyLines: [...reading.keyLines] } : reading;
}

function expectSameReading(text: string): boolean {
  const flat = readFlatYaml(text);
  const full = readYamlDocument(text);
  if (flat === undefined) return false;
  expect(full.ok, `the package refuses what the fast path read:\n${text}`).toBe(true);
  expect(comparable(flat), text).toStrictEqual(comparable(full));
  return true;
}

/** The front matter of a Markdown file as parse.ts hands it to `readYaml`: from just after the opening `---`. */
const frontMatter = (text: string) => text.slice(3, text.indexOf('\n---', 3));

describe('the flat YAML reader', () => {
  it('reads every sample deal and startup, as the yaml package does', () => {
    for (const kind of ['deals', 'startups']) {
      const dir = join(CONTENT, kind);
      const files = readdirSync(dir).filter((name) => name.endsWith('.md'));
      expect(files.length).toBeGreaterThan(10);
      for (const name of files) {
        const text = frontMatter(readFileSync(join(dir, name), 'utf8'));
        expect(expectSameReading(text), `${kind}/${name} is not read by the fast path`).toBe(true);
      }
    }
  });

  it('reads plain values by the core schema: numbers, nulls, booleans and strings as the package does', () => {
    const text = [
      '',
      'a: 0x1F',
      'b: 0o17',
      'c: 017',
      'd: +12',
      'e: 1e3',
      'f: 1.50',
      'g: .inf',
      'h: -.Inf',
      'i: .NaN',
      'j: ~',
      'k: Null',
      'l: TRUE',
      'm: yes',
      'n: 2026-11-21',
      "o: 'it''s'",
      'p: "x: y"',
      'q: -0',
      'r: 9007199254740993',
      's:',
      't:',
      '  - 1',
      '  - two',
      "  - 'three'",
    ].join('\n');
    expect(expectSameReading(text)).toBe(true);
    const reading = readYaml(text);
    expect(reading.ok && reading.data).toMatchObject({
      a: 31,
      b: 15,
      c: 17,
      d: 12,
      e: 1000,
      f: 1.5,
      g: Infinity,
      j: null,
      l: true,
      m: 'yes',
      n: '2026-11-21',
      o: "it's",
      p: 'x: y',
      s: null,
      t: [1, 'two', 'three'],
    });
  });

  it('reads a quoted value of millions of characters as the package does', () => {
    // A regular expression over the value ran out of stack from about 8.4 million characters.
    const long = `it''s ${'x'.repeat(9_000_000)}`;
    expect(expectSameReading(`a: '${long}'\nb:\n  - '${long}'`)).toBe(true);
  });

  it('leaves to the package what only it reads or words a problem for', () => {
    const outside = [
      'a: b: c', // a problem the package words
      'a: 1\na: 2', // a duplicate key
      'a: &x 1\nb: *x', // an anchor and an alias
      'a: b # comment',
      'a:\n  b: 1', // a nested map
      'a: |\n  text', // a block scalar
      'a: one\n  two', // a plain value over two lines
      'a: [1, 2]',
      'a:\n- 1\n  - 2', // items at two indents
      'a:\tb',
      'a: b\r\nc: d',
      'a: "esc\\n"',
      "a: 'open",
      'a: b ',
      '- a', // a list at the top
      'true: x', // a key the core schema reads as a boolean
      '',
      '# only a comment',
    ];
    for (const text of outside) {
      expect(readFlatYaml(text), text).toBeUndefined();
      // And readYaml still answers as the package does.
      expect(readYaml(text)).toStrictEqual(readYamlDocument(text));
    }
  });

  it('agrees with the package over 20,000 generated documents, and leaves it the rest', () => {
    const random = seededRandom(19);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const keys = ['id', 'title', 'provider', 'tags', 'x-y', 'a_b', 'k9', 'null', 'True', 'constructor', '__proto__', '1key', 'two words', 'é'];
    const values = [
      'hello',
      'hello world',
      'a  b',
      'C#',
      'a #b',
      'a: b',
      'a:b',
      'https://x.example/a?b=1#c',
      'end:',
      '-5',
      '-x',
      '- x',
      '-',
      '0x1F',
      '0o17',
      '017',
      '+12',
      '1e3',
      '1.50',
      '.5',
      '.inf',
      '-.Inf',
      '.NaN',
      '~',
      'null',
      'Null',
      'NULL',
      'true',
      'True',
      'FALSE',
      'yes',
      'on',
      '2026-11-21',
      '12:30',
      '1_000',
      "it's",
      'say "hi"',
      "'quoted'",
      "'it''s'",
      "''",
      "'unterminated",
      "'a' b",
      '"double"',
      '""',
      '"esc\\n"',
      '"a"b"',
      '[a, b]',
      '{a: 1}',
      '&anchor x',
      '*alias',
      '!tag x',
      '!!str 5',
      '|',
      '>',
      '%x',
      '@x',
      '`x',
      '?x',
      ':x',
      ',x',
      'ü',
      '日本',
      '😀',
      '\u00a0nbsp',
      'trailing ',
      '9007199254740993',
      '123456789012345678901234567890',
      '0',
      '-0',
      '+.5',
      '1.',
      '0b101',
      '12e',
      'a\u2028b',
      '\u0085',
      'a\tb',
      '#',
      'x #',
      'a,b',
      'a]b',
      'a}b',
      "don't: stop",
    ];
    const separators = [': ', ': ', ': ', ':  ', ':', ':\t'];
    // Half the documents stay near the flat form (values a deal could hold, one space after
    // the colon, lists at one indent), so both readers' agreement is tested where it matters.
    const flatValues = values.filter((value) => !/^[-!&*|>%@`?:,[{#]|: |:$| #|[\t\u0085\u2028]| $|^'.*'.|^'[^']*$|^"|'a' b/.test(value));
    let tame = false;
    const line = (): string[] => {
      if (tame) {
        if (random() < 0.3) return [`${pick(keys.slice(0, 7))}:`, ...Array.from({ length: 1 + Math.floor(random() * 3) }, () => `  - ${pick(flatValues)}`)];
        return [random() < 0.1 ? '' : `${pick(keys)}: ${pick(flatValues)}`];
      }
      switch (Math.floor(random() * 12)) {
        case 0:
          return [''];
        case 1:
          return [pick(['# a comment', '  # indented comment', '   ', '---', '...', '%YAML 1.2'])];
        case 2:
        case 3: {
          const indent = pick(['', '  ', '  ', '    ']);
          const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${random() < 0.9 ? indent : pick(['', ' ', '      '])}${pick(['- ', '- ', '-  ', '-'])}${pick(values)}`);
          return [`${pick(keys)}:`, ...items];
        }
        case 4:
          return [`${pick(keys)}:`];
        case 5:
          return [`${pick(['  ', ' '])}${pick(values)}`];
        default:
          return [`${pick(keys)}${pick(separators)}${pick(values)}`];
      }
    };
    let read = 0;
    let left = 0;
    for (let i = 0; i < 20_000; i++) {
      tame = random() < 0.5;
      const lines = Array.from({ length: 1 + Math.floor(random() * 6) }, line).flat();
      // Front matter starts with the rest of the `---` line: usually nothing.
      const text = (random() < 0.7 ? '\n' : '') + lines.join(random() < 0.03 ? '\r\n' : '\n') + (random() < 0.5 ? '\n' : '');
      if (expectSameReading(text)) read++;
      else left++;
    }
    // Both paths are exercised: a generator whose documents all fell back would prove nothing.
    expect(read).toBeGreaterThan(2_000);
    expect(left).toBeGreaterThan(2_000);
  });
});
