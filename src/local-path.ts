/**
 * Where a form may send the browser next (`next`): a path of this site only. A value must start
 * with one `/` (`//evil.example` and `/\evil.example` name another host to a browser) and hold
 * no control characters; it is read against a placeholder origin and kept only if it stays there.
 */

/**
 * The path, query and no fragment of a same-site `next`, or undefined when it is anything else.
 * @example localPath('/deals/acme/?x=1') // '/deals/acme/?x=1'
 * @example localPath('//evil.example/') // undefined
 */
export function localPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 512 || !value.startsWith('/') || /^\/[/\\]/.test(value) || /[\p{Cc}\\]/u.test(value)) return undefined;
  try {
    const url = new URL(value, 'http://site.invalid');
    return url.origin === 'http://site.invalid' ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `path` with one query flag added (a form's outcome, such as `saved=1`) and `#fragment`.
 * @example withFlag('/deals/?q=x', 'saved', 'saved-note') // '/deals/?q=x&saved=1#saved-note'
 */
export function withFlag(path: string, flag: string, fragment?: string): string {
  const [base = path] = path.split('#');
  return `${base}${base.includes('?') ? '&' : '?'}${flag}=1${fragment ? `#${fragment}` : ''}`;
}
