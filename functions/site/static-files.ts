/**
 * Static files from Astro's build output as Web responses: safe path resolution inside the
 * root, directory index pages, Markdown twins on `Accept: text/markdown`, weak ETags and 304,
 * brotli/gzip for text (compressed once per file version, through the answer sender of
 * functions/http/answer.ts), a long cache for hashed assets.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { answerResponse, matchesEtag, type Answer } from '../http/answer.ts';
import { chooseCoding, compress, COMPRESS_MIN_BYTES, type Coding } from '../http/compress.ts';
import { LRUCache } from 'lru-cache';
import { once } from '../../src/catalog/once.ts';
import { prefersMarkdown, twinPathOf } from '../http/negotiate.ts';

/** Bytes of one version of a file or page, and their compressed forms (made once, on first use). */
export interface BodyEntry {
  version: string;
  body: Uint8Array;
  encoded: Partial<Record<Coding, Promise<Uint8Array>>>;
}

/**
 * File bytes and their compressed forms, by path and version (size and mtime): files of the
 * built site, not answers of a catalog version, so not in the prepared-answer cache. Made, and
 * the `mime` package's table of types loaded, at the first file served rather than at start,
 * where the two took about 10 ms (docs/performance.md, twenty-third sitting).
 */
const files = once(() => new LRUCache<string, BodyEntry>({ max: 2000, maxSize: 64 * 1024 * 1024, sizeCalculation: (file) => Math.max(1, file.body.byteLength) }));
const mimeTypes = once(async () => (await import('mime')).default);

/**
 * The response for `pathname` under `root` when such a file exists, else `undefined`; a GET
 * or HEAD only. A page request that prefers Markdown gets the page's `index.md` twin.
 * @example await serveStatic(request, 'dist/client', '/deals/') // the built deals page
 */
export async function serveStatic(request: Request, root: string, pathname: string, status = 200): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const base = resolve(root);
  const wantsMarkdown = prefersMarkdown(request.headers.get('accept'));
  const file = (wantsMarkdown && (await findTwin(base, pathname))) || (await findFile(base, pathname));
  if (!file) return undefined;
  const ext = extname(file.path);
  const version = `${file.size.toString(36)}-${Math.floor(file.mtimeMs).toString(36)}`;
  const isPage = ext === '.html' || (ext === '.md' && file.path.endsWith(`${sep}index.md`));
  let cached = files().get(file.path);
  if (!cached || cached.version !== version) {
    cached = { version, body: new Uint8Array(await readFile(file.path)), encoded: {} };
    files().set(file.path, cached);
  }
  const type = contentType(ext, await mimeTypes());
  const headers: Record<string, string> = {
    'Content-Type': type.header,
    'Cache-Control': cacheControl(pathname, isPage),
    'X-Content-Type-Options': 'nosniff',
  };
  return sendEntry(request, cached, headers, { tag: `${version}${ext === '.md' ? '-md' : ''}`, compressible: type.text, vary: isPage ? 'Accept' : undefined, status });
}

/**
 * Hashed assets never change; pages (and their Markdown twins) are revalidated on every visit,
 * a 304 when nothing changed, so a page an admin just changed shows at once; other files may be
 * reused for five minutes.
 */
function cacheControl(pathname: string, isPage: boolean): string {
  if (pathname.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  return isPage ? PAGE_CACHE_CONTROL : 'public, max-age=300';
}

/** Pages, built or live: kept by browsers and proxies, but asked about again on every visit (ETag, 304). */
export const PAGE_CACHE_CONTROL = 'public, no-cache';

/**
 * Answer with `entry` through the answer sender: the weak ETag `W/"<tag>"` (with `-br` /
 * `-gzip` for a coding), 304 on a matching `If-None-Match`, brotli/gzip (best quality, made
 * once per entry) when `compressible`, the client takes it and the body is large enough.
 * `vary` is what the answer varies on besides `Accept-Encoding`.
 */
export async function sendEntry(
  request: Request,
  entry: BodyEntry,
  headers: Record<string, string>,
  options: { tag: string; compressible: boolean; vary?: string | undefined; status: number },
): Promise<Response> {
  const sizable = entry.body.byteLength >= COMPRESS_MIN_BYTES;
  // The sender adds `Accept-Encoding` to Vary itself for bodies it may compress.
  const vary = [options.vary, options.compressible && !sizable ? 'Accept-Encoding' : undefined].filter(Boolean).join(', ');
  const answer: Answer = {
    status: options.status,
    body: entry.body,
    etag: `W/"${options.tag}"`,
    headers: vary ? { ...headers, Vary: vary } : headers,
    encoded: entry.encoded,
    compressible: options.compressible,
  };
  const coding = options.compressible && sizable && options.status === 200 ? chooseCoding(request.headers.get('accept-encoding')) : undefined;
  // Made once per entry, at the quality of files (the sender's own default is the fast one).
  if (coding && !matchesEtag(request.headers.get('if-none-match'), answer.etag)) entry.encoded[coding] ??= compress(entry.body, coding, 'best');
  return answerResponse(request, answer);
}

// --- internal ---

/** Text types carry `; charset=utf-8` (as Astro writes them), except SVG; text is compressed. */
function contentType(ext: string, mime: { getType: (path: string) => string | null }): { header: string; text: boolean } {
  const type = mime.getType(ext) ?? 'application/octet-stream';
  const text = type.startsWith('text/') || type === 'application/json' || type === 'application/xml' || type.endsWith('+xml') || type.endsWith('+json');
  const charset = text && type !== 'image/svg+xml';
  return { header: charset ? `${type}; charset=utf-8` : type, text };
}

interface Found {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The Markdown twin of a page path (`/deals/x/` → `/deals/x/index.md`). */
function findTwin(root: string, pathname: string): Promise<Found | undefined> {
  const twin = twinPathOf(pathname);
  return twin === undefined ? Promise.resolve(undefined) : findFile(root, twin);
}

async function findFile(root: string, pathname: string): Promise<Found | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const base = normalize(join(root, decoded));
  // Never leave the root, whatever `..` or encoded separators the path holds.
  if (base !== root && !base.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  for (const candidate of decoded.endsWith('/') ? [join(base, 'index.html')] : [base, `${base}.html`, join(base, 'index.html')]) {
    try {
      const info = await stat(candidate);
      if (info.isFile()) return { path: candidate, size: info.size, mtimeMs: info.mtimeMs };
    } catch {
      // Not this candidate; try the next.
    }
  }
  return undefined;
}
