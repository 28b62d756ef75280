/**
 * Hostile content files (security review, issue 11, items 1 and 7) against the two readers
 * every path goes through: `parseEntry` (deals, startups, submissions, the re-index after a
 * pull or an admin write) and `parseYamlFile` (categories.yaml, site.yaml). A front matter
 * language other than YAML must never be evaluated, YAML anchors and aliases (the
 * billion-laughs bomb) are refused before anything expands them, and no diagnostic prints
 * an unbounded value.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Deal } from '../../src/schemas/deal.ts';
import { runPipeline } from '../../src/pipeline/build.ts';
import { ContentSnapshot } from '../../src/pipeline/content-snapshot.ts';
import { formatDiagnostic } from '../../src/pipeline/diagnostics.ts';
import { parseEntry, parseYamlFile } from '../../src/pipeline/parse.ts';
import { readContent } from '../../src/pipeline/read-content.ts';
import { toMarkdown } from '../../src/pipeline/serialize.ts';
import { aliasBomb, jsPayload } from '../helpers/hostile-content.ts';
import { FIXTURES } from '../helpers/server.ts';

const work = mkdtempSync(join(tmpdir(), 'hostile-unit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const DEAL_PATH = 'content/deals/hostile.md';

describe('front matter that opens with a language name', () => {
  test.each([
    ['js', 'an executable front-matter language'],
    ['javascript', 'an executable front-matter language'],
    ['JS', 'an executable front-matter language'],
    [' js', 'an executable front-matter language'],
    ['coffee', 'an executable front-matter language'],
    ['json', 'another front-matter language'],
    ['yaml', 'another front-matter language'],
  ])('`---%s` is refused at line 1 and nothing is evaluated', (language, kind) => {
    const marker = join(work, `marker-${encodeURIComponent(language)}`);
    const body = language.trim() === 'json' ? '{ "title": "Pwned" }' : jsPayload(marker);
    const result = parseEntry({ path: DEAL_PATH, text: `---${language}\n${body}\n---\nBody.\n` });
    expect(existsSync(marker)).toBe(false);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'unsafe_front_matter',
        file: DEAL_PATH,
        line: 1,
        message: `front matter must open with a bare \`---\` line; \`---${language}\` (${kind}) is refused`,
      },
    ]);
  });

  test('the refusal does not depend on a closing fence or a newline', () => {
    const marker = join(work, 'marker-unclosed');
    for (const text of [`---js\n${jsPayload(marker)}\n`, `---js ${jsPayload(marker)}`, `---js`]) {
      expect(parseEntry({ path: DEAL_PATH, text }).diagnostics[0]).toMatchObject({ code: 'unsafe_front_matter', line: 1 });
    }
    expect(existsSync(marker)).toBe(false);
  });

  test('an overlong opening line is cut in the message', () => {
    const message = parseEntry({ path: DEAL_PATH, text: `---${'x'.repeat(10_000)}\ntitle: T\n---\n` }).diagnostics[0]?.message ?? '';
    expect(message.length).toBeLessThan(200);
    expect(message).toContain('…');
  });

  test('four dashes are no fence either; empty front matter is still an entry with no fields', () => {
    expect(parseEntry({ path: DEAL_PATH, text: '----\ntitle: T\n---\n' }).diagnostics).toEqual([
      { severity: 'error', code: 'unsafe_front_matter', file: DEAL_PATH, line: 1, message: 'front matter must open with a bare `---` line; `----` is refused' },
    ]);
    for (const text of ['---\n---\nBody', '---\n# a comment\n---\nBody', '---\nnull\n---\nBody']) {
      expect(parseEntry({ path: DEAL_PATH, text })).toMatchObject({ value: { data: {}, body: 'Body' }, diagnostics: [] });
    }
  });

  test('a bare `---` with trailing spaces or a CR is still front matter', () => {
    for (const text of ['---  \ntitle: T\nprovider: P\n---\nBody', '---\r\ntitle: T\r\nprovider: P\r\n---\r\nBody', '--- \t\r\ntitle: T\r\nprovider: P\r\n---\r\nBody']) {
      const result = parseEntry({ path: DEAL_PATH, text });
      expect(result.diagnostics).toEqual([]);
      expect(result.value?.data).toEqual({ title: 'T', provider: 'P' });
      expect(result.value?.body).toBe('Body');
      expect(result.value?.keyLines).toEqual(
        new Map([
          ['title', 2],
          ['provider', 3],
        ]),
      );
    }
  });
});

describe('YAML anchors and aliases', () => {
  // Before the fix the bomb parsed (js-yaml shares the nodes) and hung whatever walked it.
  test('an alias bomb in front matter is refused at its first anchor, fast', { timeout: 5_000 }, () => {
    const text = `---\nid: d-bomb0001\ntitle: Bomb\n${aliasBomb()}\neligibility: [*i,*i,*i,*i,*i,*i,*i,*i,*i]\n---\nBoom.\n`;
    expect(text.length).toBeLessThan(600);
    const result = parseEntry({ path: DEAL_PATH, text });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'yaml_alias',
        file: DEAL_PATH,
        line: 4,
        message: 'front matter uses a YAML anchor (`&a`); anchors and aliases are not allowed, write each value out',
      },
    ]);
  });

  test('an alias bomb in a whole YAML file is refused at its first anchor, fast', { timeout: 5_000 }, () => {
    const text = `name: Bomb\nbaseUrl: http://localhost\n${aliasBomb()}\ndescription: [*i,*i,*i,*i,*i,*i,*i,*i,*i]\n`;
    const result = parseYamlFile({ path: 'content/site.yaml', text });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'yaml_alias',
        file: 'content/site.yaml',
        line: 3,
        message: 'uses a YAML anchor (`&a`); anchors and aliases are not allowed, write each value out',
      },
    ]);
  });

  test('a single harmless anchor, an alias, or a merge key is refused too', () => {
    const cases: [string, number, string][] = [
      ['---\ntitle: &t Title\nprovider: P\n---\n', 2, 'a YAML anchor (`&t`)'],
      ['---\ntitle: T\nprovider: P\nlist:\n  - &first x\n  - *first\n---\n', 5, 'a YAML anchor (`&first`)'],
      ['---\nbase: &base { title: T }\nmerged:\n  <<: *base\n---\n', 2, 'a YAML anchor (`&base`)'],
      ['---\n&root\ntitle: T\n---\n', 2, 'a YAML anchor (`&root`)'],
      ['---\n? &k key\n: value\n---\n', 2, 'a YAML anchor (`&k`)'],
    ];
    for (const [text, line, what] of cases) {
      const [diagnostic] = parseEntry({ path: DEAL_PATH, text }).diagnostics;
      expect(diagnostic, text).toMatchObject({ code: 'yaml_alias', line, message: expect.stringContaining(what) });
    }
    // An alias without its anchor is not valid YAML at all.
    expect(parseEntry({ path: DEAL_PATH, text: '---\ntitle: *nowhere\n---\n' }).diagnostics[0]).toMatchObject({ line: 2 });
  });

  test('a categories.yaml bomb stops the whole pipeline with one diagnostic at its line', { timeout: 5_000 }, async () => {
    const sources = await readContent(join(FIXTURES, 'valid'));
    const categories = { path: 'content/categories.yaml', text: `${sources.categories?.text ?? ''}${aliasBomb()}\nmore: [*i,*i]\n` };
    const { value, diagnostics } = runPipeline({ ...sources, categories }, { today: '2026-11-21', index: false });
    expect(value).toBeUndefined();
    expect(diagnostics.map(formatDiagnostic)).toEqual(['content/categories.yaml:22 uses a YAML anchor (`&a`); anchors and aliases are not allowed, write each value out']);
  });
});

describe('YAML reading keeps the content model', () => {
  test('core schema: dates, on/yes/no stay the strings editors wrote', () => {
    const result = parseEntry({ path: DEAL_PATH, text: '---\nexpiryDate: 2027-06-30\na: on\nb: yes\nc: no\nd: true\ne: 12\nf: ~\n---\n' });
    expect(result.value?.data).toEqual({ expiryDate: '2027-06-30', a: 'on', b: 'yes', c: 'no', d: true, e: 12, f: null });
  });

  test('a `%YAML 1.1` directive does not bring the 1.1 types back', () => {
    const result = parseYamlFile({ path: 'content/site.yaml', text: '%YAML 1.1\n---\nname: on\ndate: 2027-06-30\n' });
    expect(result.value?.data).toEqual({ name: 'on', date: '2027-06-30' });
  });

  test('YAML 1.1 and unknown tags are refused, not turned into Buffers, Dates or silently strings', () => {
    for (const [text, line] of [
      ['---\ntitle: T\nlogo: !!binary aGk=\n---\n', 3],
      ['---\ntitle: T\nexpiryDate: !!timestamp 2027-06-30\n---\n', 3],
      ['---\ntitle: !custom T\n---\n', 2],
    ] as const) {
      expect(parseEntry({ path: DEAL_PATH, text }).diagnostics[0], text).toMatchObject({ code: 'invalid_yaml', line });
    }
  });

  test('a `__proto__` key is plain data, not a prototype', () => {
    const result = parseEntry({ path: DEAL_PATH, text: '---\n__proto__:\n  polluted: true\ntitle: T\n---\n' });
    expect(Object.getPrototypeOf(result.value?.data)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(result.value?.data ?? {})).toEqual(['__proto__', 'title']);
  });

  test("the writer's output reads back: a value shared by two fields is written out, not as an anchor", () => {
    const tags = ['cloud', 'credits'];
    const text = toMarkdown({ id: 'd-share001', title: 'on', expiryDate: '2027-06-30', tags, eligibility: tags, note: '*not an alias' }, 'Body');
    expect(text).not.toMatch(/[&*]ref/);
    expect(parseEntry({ path: DEAL_PATH, text })).toMatchObject({
      value: { data: { id: 'd-share001', title: 'on', expiryDate: '2027-06-30', tags, eligibility: tags, note: '*not an alias' }, body: 'Body' },
      diagnostics: [],
    });
  });

  test('several YAML documents in one file are refused', () => {
    expect(parseYamlFile({ path: 'content/site.yaml', text: 'name: A\n---\nname: B\n' }).diagnostics[0]).toMatchObject({ code: 'invalid_yaml', line: 2 });
  });
});

describe('diagnostics print bounded values', () => {
  const HUGE = 'x'.repeat(5_000);
  /** A slug that is no slug (upper case), as an admin write could send it. */
  const HUGE_SLUG = 'X'.repeat(5_000);
  const MAX_LINE = 300;

  async function linesFor(deal: string) {
    const sources = await readContent(join(FIXTURES, 'valid'));
    const deals = [{ path: 'valid/deals/huge.md', text: deal }];
    return runPipeline({ ...sources, deals }, { today: '2026-11-21', index: false }).diagnostics.map(formatDiagnostic);
  }

  test('an unknown category of 120 characters is cut', async () => {
    const lines = await linesFor(`---\nid: d-huge0001\ntitle: T\nprovider: P\ncategory: ${'a'.repeat(120)}\nstatus: active\napplicationUrl: https://x.example\n---\n`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^valid\/deals\/huge\.md:5 category: expected one of .*, got `a{79}…`$/);
  });

  test('huge unknown keys and many of them are cut', async () => {
    const keys = Array.from({ length: 200 }, (_, i) => `${HUGE.slice(0, 900)}${i}: 1`).join('\n');
    const lines = await linesFor(`---\nid: d-huge0001\ntitle: T\nprovider: P\ncategory: cloud-credits\nstatus: active\napplicationUrl: https://x.example\n${keys}\n---\n`);
    // Ten keys of at most 80 characters, then how many more.
    expect(lines).toEqual([expect.stringMatching(/^valid\/deals\/huge\.md \(root\): unknown fields (`x{79}…`, ){9}`x{79}…`, … \(190 more\)$/)]);
    expect(lines[0]?.length).toBeLessThanOrEqual(1_000);
  });

  test('a huge value in a YAML error message is cut', async () => {
    const lines = await linesFor(`---\ntitle: !<${HUGE}> T\n---\n`);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBeLessThanOrEqual(MAX_LINE);
  });

  test('a huge wrong-typed value is cut', async () => {
    const lines = await linesFor(
      `---\nid: d-huge0001\ntitle: [${Array.from({ length: 500 }, () => '"long value"').join(',')}]\nprovider: P\ncategory: cloud-credits\nstatus: active\napplicationUrl: https://x.example\n---\n`,
    );
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^valid\/deals\/huge\.md:3 title: .*, got `\[.{78}…`$/);
  });

  test('a huge slug in an admin write is cut', async () => {
    const built = runPipeline(await readContent(join(FIXTURES, 'valid')), { today: '2026-11-21', index: false });
    if (!built.value) throw new Error('the valid fixture does not build');
    const result = new ContentSnapshot(built.value.data).withDealChanges([{ slug: HUGE_SLUG } as unknown as Deal], [], '2026-11-21');
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics.map(formatDiagnostic)[0]?.length).toBeLessThanOrEqual(MAX_LINE);
  });
});
