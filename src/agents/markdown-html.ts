/**
 * A small, safe Markdown-to-HTML renderer for content descriptions: paragraphs, bullet lists,
 * headings, bold, italics, inline code and links. All text is escaped first, so raw HTML in
 * content is shown as text, never injected; links and code spans are found by the bounded
 * scanner and links follow the URL rule that the Markdown outputs apply too (markdown-policy.ts).
 */
import { escapeHtml } from '../escape-html.ts';
import { isAllowedUrl } from './markdown-policy.ts';
import { backtickRun, codeSpanText, LineScanner } from './markdown-scan.ts';

/** Inline formatting of one escaped line. */
function inline(escaped: string): string {
  // Code spans first, held aside so no later rule formats inside them; private-use marks hold their places.
  const codes: string[] = [];
  const held = withCodeSpans(escaped.replace(/[\uE000\uE001]/g, '\uFFFD'), (code) => `\uE000${codes.push(code) - 1}\uE001`);
  const formatted = held.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
  return withLinks(formatted).replace(/\uE000(\d+)\uE001/g, (_, n: string) => `<code>${codes[Number(n)] ?? ''}</code>`);
}

/**
 * @example markdownToHtml('Hello **world**\n\n- a\n- b') // '<p>Hello <strong>world</strong></p><ul><li>a</li><li>b</li></ul>'
 */
export function markdownToHtml(markdown: string): string {
  const blocks = markdown
    .replace(/\r\n/g, '\n')
    .trim()
    .split(/\n{2,}/);
  return blocks
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
        return `<ul>${lines.map((l) => `<li>${inline(escapeHtml(l.replace(/^\s*[-*]\s+/, '')))}</li>`).join('')}</ul>`;
      }
      const heading = /^(#{1,4})\s+(.*)$/.exec(block);
      if (heading && lines.length === 1) {
        const level = Math.min(6, (heading[1]?.length ?? 1) + 2);
        return `<h${level}>${inline(escapeHtml(heading[2] ?? ''))}</h${level}>`;
      }
      return `<p>${lines.map((l) => inline(escapeHtml(l))).join('<br>')}</p>`;
    })
    .join('');
}

// --- internal ---

/** `line` with each CommonMark code span (a backtick run up to the next run of the same length) replaced by `render(content)`. */
function withCodeSpans(line: string, render: (content: string) => string): string {
  const scan = new LineScanner(line);
  let out = '';
  let i = 0;
  for (let at = line.indexOf('`'); at !== -1; at = line.indexOf('`', i)) {
    const run = backtickRun(line, at);
    const close = scan.closingRun(at + run, run);
    if (close < 0) {
      out += line.slice(i, at + run);
    } else {
      out += line.slice(i, at) + render(codeSpanText(line.slice(at + run, close)));
    }
    i = close < 0 ? at + run : close + run;
  }
  return out + line.slice(i);
}

/** `[text](url)` links to allowed URLs as anchors; other bracketed text stays as written. */
function withLinks(line: string): string {
  const scan = new LineScanner(line);
  let out = '';
  let i = 0;
  for (let at = line.indexOf('['); at !== -1; at = line.indexOf('[', at + 1)) {
    const link = scan.linkAt(at);
    if (!link || !isAllowedUrl(link.url)) continue;
    out += `${line.slice(i, at)}<a href="${link.url}" rel="noopener nofollow">${link.text}</a>`;
    i = link.end;
    at = link.end - 1;
  }
  return out + line.slice(i);
}
