/**
 * A small, safe Markdown-to-HTML renderer for content descriptions: paragraphs, bullet lists,
 * headings, bold, italics, inline code and http(s) links. All text is escaped first, so raw
 * HTML in content is shown as text, never injected.
 */

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Inline formatting of one escaped line. */
function inline(escaped: string): string {
  return escaped
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2" rel="noopener nofollow">$1</a>');
}

/**
 * @example markdownToHtml('Hello **world**\n\n- a\n- b') // '<p>Hello <strong>world</strong></p><ul><li>a</li><li>b</li></ul>'
 */
export function markdownToHtml(markdown: string): string {
  const blocks = markdown.replace(/\r\n/g, '\n').trim().split(/\n{2,}/);
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
