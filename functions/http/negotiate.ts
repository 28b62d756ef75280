/**
 * Content negotiation for pages (RFC 9110 §12.5.1): Markdown twin or HTML. Markdown wins only
 * when `text/markdown` (or `text/x-markdown`) is listed with q > 0 and at least the q of
 * `text/html`; browsers never list it, so they keep HTML. On a tie the first listed wins.
 */

/**
 * @example prefersMarkdown('text/markdown, text/html;q=0.9') // true
 * @example prefersMarkdown('text/html,application/xhtml+xml,*\/*;q=0.8') // false
 */
export function prefersMarkdown(accept: string | undefined | null): boolean {
  if (!accept) return false;
  let markdown = { q: 0, at: Infinity };
  let html = { q: 0, at: Infinity };
  accept.split(',').forEach((part, at) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) return;
    const media = type.trim();
    if ((media === 'text/markdown' || media === 'text/x-markdown') && q > markdown.q) markdown = { q, at };
    if (media === 'text/html' && q > html.q) html = { q, at };
  });
  if (markdown.q <= 0) return false;
  return markdown.q > html.q || (markdown.q === html.q && markdown.at < html.at);
}

/**
 * Where a page's Markdown twin is in the built site: `index.md` beside its `index.html`; none
 * for a path naming a file (one with an extension).
 * @example twinPathOf('/deals/acme') // '/deals/acme/index.md'
 * @example twinPathOf('/llms.txt') // undefined
 */
export function twinPathOf(pathname: string): string | undefined {
  if (/\.[^/]*$/.test(pathname)) return undefined;
  return `${pathname.endsWith('/') ? pathname : `${pathname}/`}index.md`;
}
