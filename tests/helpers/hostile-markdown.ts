/**
 * Hostile content for the Markdown outputs (issue 11, item 14), the checks that it arrived
 * neutralised, and a CommonMark code-span reader to check `codeSpan` against the spec rather
 * than against itself.
 */
import { expect } from 'vitest';
import type { Deal } from '../../src/schemas/deal.ts';

/** One-line deal fields an editor or a submitter controls (all valid for the Deal schema). */
export const HOSTILE_FIELDS: Pick<Deal, 'title' | 'provider' | 'value' | 'shortDescription' | 'eligibility' | 'applicationUrl'> = {
  title: 'Hostile <img src=x onerror=alert(1)> credits',
  provider: '<script>alert(1)</script>',
  value: '[click](javascript:alert(1))',
  shortDescription: '# Fake heading <iframe src="https://evil.example/"></iframe>',
  eligibility: ['<svg onload=alert(1)>', '[x](data:text/html,hi)'],
  // http(s) passes the schema, yet the raw text would be HTML in a Markdown document.
  applicationUrl: 'https://evil.example/<script>alert(9)</script>',
};

/** A description with every construct the policy covers; the unclosed fence is last on purpose. */
export const HOSTILE_DESCRIPTION = [
  'Intro <script>alert(1)</script> and <img src=x onerror=alert(1)>.',
  '',
  '[click](javascript:alert(1)) [x](JaVaScRiPt:alert(2)) [y](data:text/html,<script>alert(3)</script>) <javascript:alert(4)>',
  '',
  '![pixel](https://evil.example/p.gif?leak=1) [kept](https://ok.example/path) [home](/deals/)',
  '',
  '[ref]: javascript:alert(5)',
  '',
  'See [ref] and [ref][].',
  '',
  'Fake category',
  '---',
  '',
  '# Injected H1',
  '',
  '```',
  'an unclosed fence would swallow the rest of the document',
].join('\n');

/**
 * Fail unless `markdown` has no raw HTML element, no link or autolink to a script or data URL,
 * no link reference definition and no image, and (by default) still shows the link texts.
 */
export function expectNeutralised(markdown: string, { requireText = true } = {}): void {
  expect(markdown).not.toMatch(/<(?:script|img|iframe|svg|style)\b/i);
  expect(markdown).not.toMatch(/<(?:javascript|data|vbscript):/i);
  // An unescaped `[`, text (where `\x` is one escaped character), an unescaped `](scheme:`: a link.
  expect(markdown).not.toMatch(/(?<!\\)\[(?:\\.|[^\\\]\n])*\]\(\s*<?(?:javascript|data|vbscript):/i);
  expect(markdown).not.toMatch(/^ {0,3}(?<!\\)\[[^\]\n]+\]:/m);
  expect(markdown).not.toMatch(/(?<!\\)!\[[^\]\n]*\]\(/);
  if (requireText) {
    for (const text of ['click', 'pixel', 'Intro']) expect(markdown).toContain(text);
  }
}

/**
 * The text of `markdown` read as exactly one CommonMark code span (spec 0.31, 6.1), or
 * undefined when it is not one: the opening backtick string, the first later backtick string
 * of the same length, line endings as spaces, one space stripped from each side when both are
 * spaces and the content is not all spaces.
 */
export function readCodeSpan(markdown: string): string | undefined {
  const open = /^`+/.exec(markdown)?.[0];
  if (!open) return undefined;
  const runs = /`+/g;
  runs.lastIndex = open.length;
  for (let run = runs.exec(markdown); run; run = runs.exec(markdown)) {
    if (run[0].length !== open.length) continue;
    if (run.index + run[0].length !== markdown.length) return undefined;
    const content = markdown.slice(open.length, run.index).replace(/\r\n|\r|\n/g, ' ');
    return content.startsWith(' ') && content.endsWith(' ') && !/^ +$/.test(content) ? content.slice(1, -1) : content;
  }
  return undefined;
}
