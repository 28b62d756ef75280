/**
 * Shared field helpers for the content and API schemas: one definition of a slug, a date,
 * a link, so every resource validates them the same way.
 */
import * as z from 'zod';

/** URL-safe identifier: lowercase letters and digits, single hyphens between them. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A slug such as `aws-activate`.
 * @example slug().parse('cloud-credits')
 */
export function slug() {
  return z.string().min(1).max(120).regex(SLUG_PATTERN, { error: 'expected lowercase letters, digits and single hyphens, like `cloud-credits`' });
}

/** Record identifier: letters, digits, `_` and `-`, 3 to 64 characters, such as `d-4k9x2mpq`. */
export function recordId() {
  return z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/, { error: 'expected 3 to 64 letters, digits, `_` or `-`' });
}

/** ISO 8601 calendar date `YYYY-MM-DD` (DESIGN: dates in content are calendar dates). */
export function isoDate() {
  return z.iso.date({ error: 'expected a date as YYYY-MM-DD' });
}

/**
 * The one rule for every link field (deals, startups, site, categories, submissions): what the
 * WHATWG `URL` parser makes of the text, kept only if it is an unambiguous absolute http(s)
 * link, stored as its serialisation so every stored or answered value is an RFC 3986 URI
 * (`format: uri`). docs/editing-content.md "Links" lists what is normalised and what is refused.
 *
 * Normalised: surrounding white space; scheme and host case (`HTTPS://EXAMPLE.COM`); IDN hosts
 * to punycode (`http://例え.jp` → `http://xn--r8jz45g.jp`); default ports; `.`/`..` segments;
 * spaces, non-ASCII and other characters a URI cannot hold, percent-encoded (`/a b` → `/a%20b`,
 * a `%` that starts no escape → `%25`). Escapes already there (`%20`) stay as written, and an
 * empty path stays empty (`https://example.com`, not `…com/`).
 * Refused: anything but `http://` or `https://` followed by a host (`ftp:`, `javascript:`,
 * `//example.com`, `https:example.com`, `https:///x`); control characters (tab, line break)
 * anywhere; `\`; a user name or password (`user:pw@`, also an empty one); a host that does not
 * parse or is not a DNS name or IP address (a space in it, `{`, `..`); a bad port.
 * @example normaliseHttpUrl('HTTPS://Example.com/a b') // { ok: true, url: 'https://example.com/a%20b' }
 * @example normaliseHttpUrl('https://user:pw@example.com') // { ok: false, problem: ' without a user name or password (`user:pw@`)' }
 */
export function normaliseHttpUrl(input: string): HttpUrlCheck {
  const value = input.trim();
  // The parser would silently drop tabs and line breaks: `https://exa\tmple.com` is ambiguous.
  if (/\p{Cc}/u.test(value)) return refused(' without tabs, line breaks or other control characters');
  const scheme = /^https?:\/\/(?=[^/\\])/i.exec(value);
  if (!scheme) return refused('');
  // The parser reads `\` as `/` in http(s) links, other software does not: refuse the guess.
  if (value.includes('\\')) return refused(' with `/`, not `\\`');
  const authority = value.slice(scheme[0].length).split(/[/?#]/, 1)[0] ?? '';
  if (authority.includes('@')) return refused(' without a user name or password (`user:pw@`)');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refused(' with a valid host name and port (no spaces in the host)');
  }
  if (!HOST.test(url.hostname)) return refused(' with a valid host name and port (no spaces in the host)');
  // An empty path stays empty: the serialiser's `/` would change every bare-origin link.
  const emptyPath = !/^[^/?#]*\//.test(value.slice(scheme[0].length));
  const path = emptyPath && url.pathname === '/' ? '' : url.pathname;
  const hash = url.hash === '' ? '' : `#${escapeRest(url.hash.slice(1), FRAGMENT_CHARS)}`;
  return { ok: true, url: `${url.protocol}//${url.host}${escapeRest(path, PATH_CHARS)}${escapeRest(url.search, FRAGMENT_CHARS)}${hash}` };
}

/** What {@link normaliseHttpUrl} made of a link: the URL to store, or how it falls short. */
export type HttpUrlCheck = { ok: true; url: string } | { ok: false; problem: string };

/** What a link must be, for messages: `expected ${HTTP_URL}${problem}` (zod), `<field> must be ${HTTP_URL}${problem}` (API). */
export const HTTP_URL = 'an absolute http:// or https:// URL';

/**
 * An absolute http(s) URL under {@link normaliseHttpUrl}: refused links are issues naming the
 * field, accepted ones are replaced by their normalised form (`.overwrite`, so the JSON Schema
 * stays a plain `string`, `format: uri`, in both directions; the pattern tells JSON Schema
 * readers the scheme, which the stored form always has in lower case).
 */
export function httpUrl() {
  return z
    .string()
    .check((ctx) => {
      const checked = normaliseHttpUrl(ctx.value);
      if (!checked.ok) ctx.issues.push({ code: 'custom', message: `expected ${HTTP_URL}${checked.problem}`, input: ctx.value });
    })
    .overwrite((value) => {
      const checked = normaliseHttpUrl(value);
      return checked.ok ? checked.url : value;
    })
    .meta({ format: 'uri', pattern: '^https?://' });
}

/**
 * Whether a record is a draft (issue 16): in no public output (API, pages, sitemap, llms files,
 * Markdown twins, MCP, search, stats) until published; admins list, edit and preview it.
 */
export function draftFlag() {
  return z.boolean().describe('`true`: a draft, kept out of every public output (API, pages, sitemap, llms files, MCP, search) until published; left out or `false` when published.').optional();
}

/** Non-empty text with surrounding white space removed. */
export function text(max = 500) {
  return z.string().trim().min(1).max(max);
}

/** A list of short strings, such as tags or eligibility rules. */
export function textList(maxItems = 50, maxLength = 300) {
  return z.array(text(maxLength)).max(maxItems);
}

// --- internal ---

/** A DNS name (labels of letters, digits, `-`, `_`; an optional final dot), an IPv4 or IPv6 address. */
const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])$/;
/** RFC 3986 `pchar` and `/`, and `%` (escapes are checked apart). */
const PATH_CHARS = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%]/;
/** RFC 3986 query and fragment characters: `pchar`, `/` and `?`. */
const FRAGMENT_CHARS = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/;

/** Percent-encode what the URL serialiser leaves that RFC 3986 does not allow (`|`, `[`, a bare `%`...). */
function escapeRest(text: string, allowed: RegExp): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (char === '%') out += /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3)) ? '%' : '%25';
    else if (allowed.test(char)) out += char;
    else out += encodeURIComponent(char);
  }
  return out;
}

function refused(problem: string): HttpUrlCheck {
  return { ok: false, problem };
}
