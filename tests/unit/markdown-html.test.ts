/**
 * The content Markdown renderer (SECURITY.md "visitors"): raw HTML in a description is shown as
 * text, links are http(s) only, and no input can open an attribute or an element of its own.
 */
import { describe, expect, test } from 'vitest';
import { markdownToHtml } from '../../src/agents/markdown-html.ts';

describe('markdownToHtml', () => {
  test('the formatting it supports', () => {
    expect(markdownToHtml('## Terms\n\nHello **world**, *really* `now`.\n\n- a [link](https://a.example/x)\n- b')).toMatchInlineSnapshot(
      `"<h4>Terms</h4><p>Hello <strong>world</strong>, <em>really</em> <code>now</code>.</p><ul><li>a <a href="https://a.example/x" rel="noopener nofollow">link</a></li><li>b</li></ul>"`,
    );
  });

  test.each([
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg><script>alert(1)</script></svg>',
    '- <b onmouseover=alert(1)>item</b>',
    '# <style>body{display:none}</style>',
  ])('raw HTML is escaped, never injected: %s', (input) => {
    const html = markdownToHtml(input);
    expect(html).not.toMatch(/<(script|img|iframe|svg|style|b)\b/i);
    expect(html).toContain('&lt;');
  });

  test.each([
    ['[x](javascript:alert(1))', 'javascript:'],
    ['[x](data:text/html,<script>alert(1)</script>)', 'data:'],
    ['[x](vbscript:msgbox)', 'vbscript:'],
  ])('only http(s) links become links: %s', (input, scheme) => {
    expect(markdownToHtml(input)).not.toContain('<a ');
    expect(markdownToHtml(input)).toContain(scheme);
  });

  test('a quote in a link target cannot close the href attribute', () => {
    const html = markdownToHtml('[x](https://a.example/"onmouseover="alert(1))');
    expect(html).not.toMatch(/"\s*onmouseover=/);
    expect(html).toContain('&quot;');
  });
});
