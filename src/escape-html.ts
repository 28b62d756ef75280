/**
 * Escape text for insertion into HTML, as element text or a quoted attribute value.
 * @example escapeHtml('<b>"A&B"</b>') // '&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
