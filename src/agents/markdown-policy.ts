/**
 * The one content policy of every Markdown output (twins, llms files, MCP text; issue 11, item
 * 14): content is editor- or submitter-written, and agents and Markdown viewers render it. The
 * rules are the HTML renderer's (markdown-html.ts), in Markdown:
 * - raw HTML is shown as text: every `<` outside a fenced code block becomes `&lt;` (all HTML
 *   and autolinks start with it; an entity works in every Markdown dialect, a backslash does
 *   not), and a code span that holds one is shown as the same text, escaped;
 * - a link stays a link only to an http(s) URL or a site path, found by the same bounded
 *   scanner; any other link is reduced to its text, and an image becomes a link, never an
 *   automatic fetch (an image URL can carry data out of an agent's context);
 * - content cannot change the document around it: its headings sit below the heading it is
 *   under, a setext underline is text, a code fence it leaves open is closed, and no bracket
 *   or backtick is left for a parser to pair differently than this scanner did (a stray `[` is
 *   the entity `&#91;`).
 */
import { backtickRun, codeSpanText, LINK_URL_MAX, LineScanner } from './markdown-scan.ts';

/**
 * Whether a link may point at `url`: absolute http(s), or a path on this site (`/deals/`; not
 * `//host`, `/\host` or an entity that a renderer could decode into either).
 * @example isAllowedUrl('https://aws.amazon.com/activate/') // true
 */
export function isAllowedUrl(url: string): boolean {
  return /^https?:\/\/\S/i.test(url) || /^\/(?![/\\&])/.test(url);
}

/** Where a content block sits in the document that carries it. */
export interface ContentPlacement {
  /** The level a `#` heading in the content becomes (deeper ones follow, at most 6). */
  headingLevel: number;
  /** Any URL of the site: site paths in links are made absolute on its origin. */
  siteUrl?: string;
}

/**
 * Markdown content (a description) made safe to embed in a Markdown document.
 * @example markdownContent('# Terms\n\n[x](javascript:void) <b>', { headingLevel: 3 }) // '### Terms\n\nx &lt;b>'
 */
export function markdownContent(markdown: string, placement: ContentPlacement): string {
  const origin = placement.siteUrl === undefined ? undefined : new URL(placement.siteUrl).origin;
  const out: string[] = [];
  let fence: { marker: string; length: number } | undefined;
  for (const line of markdown.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD').split('\n')) {
    if (fence) {
      // CommonMark: fence content is literal; a closing fence is the same character, at least as long, 0-3 spaces in.
      out.push(line);
      const closing = /^ {0,3}(`+|~+)[ \t]*$/.exec(line)?.[1];
      if (closing && closing[0] === fence.marker[0] && closing.length >= fence.length) fence = undefined;
      continue;
    }
    const opening = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (opening?.[1] && !(opening[1][0] === '`' && opening[2]?.includes('`'))) {
      fence = { marker: opening[1], length: opening[1].length };
      // At column 0 no list item or quote of the content can hold the fence, so its end is where this loop sees it.
      out.push(line.trimStart());
      continue;
    }
    // A lone `-` is a setext underline before it is an empty list item.
    const prefix = SETEXT.test(line) ? '' : containerPrefix(line);
    const rest = line.slice(prefix.length);
    const heading = /^ {0,3}(#{1,6})(?=[ \t]|$)/.exec(rest);
    if (heading?.[1]) {
      const level = Math.min(6, placement.headingLevel + heading[1].length - 1);
      out.push(`${prefix}${'#'.repeat(level)}${inline(rest.slice(heading[0].length), origin)}`);
    } else if (SETEXT.test(rest)) {
      // A setext underline would make the line above a heading; escaped, it is text.
      out.push(`${prefix}${rest.replace(/^( *)/, '$1\\')}`);
    } else {
      out.push(inline(line, origin));
    }
  }
  if (fence) out.push(fence.marker);
  return out.join('\n');
}

/**
 * Plain text (a title, a provider, a list item) as Markdown that renders as exactly that
 * text, on one line.
 * @example markdownText('<b>[Free]</b> *now*') // '&lt;b>&#91;Free\\]&lt;/b> \\*now\\*'
 */
export function markdownText(text: string): string {
  return startsNoBlock(escapeText(text.replace(/[ \t\r\n\f\v]+/g, ' ').trim()));
}

/**
 * A URL as Markdown text: an autolink when it is http(s) (normalised, so it holds no space,
 * `<` or `>`), else plain text.
 * @example markdownUrl('https://a.example/<x>') // '<https://a.example/%3Cx%3E>'
 */
export function markdownUrl(url: string): string {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return markdownText(url);
  return `<${new URL(url).href}>`;
}

/**
 * `text` as one CommonMark inline code span that reads back as exactly `text`: the fence is one
 * backtick longer than the longest run inside, and a space pads each side when the text starts
 * or ends with a backtick, or starts and ends with a space (which a reader would strip). Line
 * breaks become spaces, as a reader would make them; empty text gives an empty string.
 * @example codeSpan('a`b``c') // '```a`b``c```'
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n?|\n/g, ' ');
  if (flat === '') return '';
  const longest = (flat.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0);
  const fence = '`'.repeat(longest + 1);
  const pad = /^`|`$/.test(flat) || codeSpanText(flat) !== flat ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

// --- internal ---

/** An `&` that starts a character reference: escaped, it shows as typed, like on the HTML page. */
const REFERENCE = '&(?=#\\d{1,7};|#[xX][\\da-fA-F]{1,6};|[A-Za-z][A-Za-z\\d]{1,31};)';
const ENTITY = new RegExp(REFERENCE, 'g');
const ENTITY_AT = new RegExp(REFERENCE, 'y');
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** An http(s) autolink (CommonMark: no space, `<`, `>` or control character inside), bounded like a link URL. */
const AUTOLINK = new RegExp(`<(https?://[^\\s<>\\p{Cc}]{1,${LINK_URL_MAX}})>`, 'iuy');

/** `text` with every character that could format it escaped: it renders as itself (`[` as an entity, see `inline`). */
function escapeText(text: string): string {
  return text
    .replace(/[\\`*_\]~]/g, '\\$&')
    .replace(ENTITY, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\[/g, '&#91;');
}

/** `text` with its first character escaped when, at the start of a line, it would open a heading, quote, list, fence or setext underline. */
function startsNoBlock(text: string): string {
  return text.replace(/^[#>+=~*_-]/, '\\$&').replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

/** The list markers and quote markers that open `line` (sticky: each step consumes input, so it is linear). */
function containerPrefix(line: string): string {
  const marker = / {0,3}(?:>|[-+*]|\d{1,9}[.)])(?:[ \t]+|$)/y;
  let at = 0;
  while (marker.test(line)) at = marker.lastIndex;
  return line.slice(0, at);
}

/**
 * One line of content under the policy. Every `[` left opens an allowed link, every `<` an
 * http(s) autolink, and every backtick left unescaped belongs to a code span this scan paired
 * whose content holds neither, so a reader cannot find a link or raw HTML that this scan did not.
 * @param fragment text inside a link: a trailing backslash would escape the `]` after it
 */
function inline(text: string, origin: string | undefined, fragment = false): string {
  const scan = new LineScanner(text);
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\') {
      if (next === '`') {
        // The whole run is literal, whatever a reader makes of the backticks after an escaped one.
        const run = backtickRun(text, i + 1);
        out += '\\`'.repeat(run);
        i += 1 + run;
      } else if (next === '<' || next === '[') {
        out += next === '<' ? '&lt;' : '&#91;';
        i += 2;
      } else if (next !== undefined && ASCII_PUNCTUATION.test(next)) {
        out += c + next;
        i += 2;
      } else {
        out += fragment && next === undefined ? '\\\\' : '\\';
        i++;
      }
    } else if (c === '`') {
      const run = backtickRun(text, i);
      const close = scan.closingRun(i + run, run);
      const raw = close < 0 ? '' : text.slice(i + run, close);
      // Verbatim only when its content could be nothing else should a reader not see the span (a
      // linkify extension can take the opening backtick into a bare URL); else the same text, escaped.
      if (close < 0) out += '\\`'.repeat(run);
      else out += /[<[]/.test(raw) ? startsNoBlock(escapeText(codeSpanText(raw))) : text.slice(i, close + run);
      i = close < 0 ? i + run : close + run;
    } else if (c === '<') {
      AUTOLINK.lastIndex = i;
      const match = AUTOLINK.exec(text);
      out += match ? match[0] : '&lt;';
      i += match ? match[0].length : 1;
    } else if (c === '&') {
      ENTITY_AT.lastIndex = i;
      out += ENTITY_AT.test(text) ? '&amp;' : '&';
      i++;
    } else if (c === '[' || (c === '!' && next === '[')) {
      const open = c === '[' ? i : i + 1;
      const link = scan.linkAt(open);
      if (link) {
        const label = inline(link.text, origin, true);
        const href = destination(link.url, origin);
        // Reduced to its text, the label may now open the line: it must not open a block there.
        out += href === undefined ? startsNoBlock(label.trimStart()) : `[${label}](${href})`;
        i = link.end;
      } else {
        // An entity, not a backslash: a linkify extension can take a backslash into a bare URL before it.
        out += c === '[' ? '&#91;' : '!&#91;';
        i = open + 1;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * A link's URL as it may appear in the output, or undefined when it may not be a link. Escapes
 * are resolved and the characters that could end or reshape a destination are %-encoded, so a
 * reader ends the link where this scan did.
 */
function destination(url: string, origin: string | undefined): string | undefined {
  if (!isAllowedUrl(url)) return undefined;
  const plain = url.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const encoded = plain.replace(/[\p{Cc} <>"'`()\\]/gu, (ch) => (ch < '\x80' ? `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(ch)));
  return origin !== undefined && encoded.startsWith('/') ? `${origin}${encoded}` : encoded;
}
