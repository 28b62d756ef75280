/**
 * Static files from Astro's build output, for the Node adapter: safe path resolution inside
 * the root, directory index pages, Markdown twins on `Accept: text/markdown`, ETag/304,
 * brotli/gzip for text (compressed once per file version), a long cache for hashed assets.
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { chooseCoding, compress, COMPRESS_MIN_BYTES, type Coding } from '../http/compress.ts';
import { LruCache } from '../http/lru-cache.ts';
import { prefersMarkdown } from '../http/negotiate.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const TEXT = new Set(['.html', '.css', '.js', '.json', '.md', '.txt', '.xml', '.svg']);

/** Bytes of one version of a file or page, and their compressed forms (made once, on first use). */
export interface BodyEntry {
  version: string;
  body: Buffer;
  encoded: Partial<Record<Coding, Promise<Uint8Array>>>;
}

/** File bytes and their compressed forms, by path and version. */
const files = new LruCache<BodyEntry>(2000, 64 * 1024 * 1024, (f) => f.body.byteLength);

/**
 * Serve `pathname` from `root` if such a file exists; returns false (nothing written) otherwise.
 * A page request that prefers Markdown gets the page's `index.md` twin.
 */
export async function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, pathname: string, status = 200): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const wantsMarkdown = prefersMarkdown(req.headers.accept);
  const file = (wantsMarkdown && (await findTwin(root, pathname))) || (await findFile(root, pathname));
  if (!file) return false;
  const ext = extname(file.path);
  const version = `${file.size.toString(36)}-${Math.floor(file.mtimeMs).toString(36)}`;
  const isPage = ext === '.html' || (ext === '.md' && file.path.endsWith(`${sep}index.md`));
  let cached = files.get(file.path);
  if (!cached || cached.version !== version) {
    cached = { version, body: await readFile(file.path), encoded: {} };
    files.set(file.path, cached);
  }
  const headers: Record<string, string> = {
    'Content-Type': TYPES[ext] ?? 'application/octet-stream',
    'Cache-Control': pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  };
  const vary = [isPage ? 'Accept' : '', TEXT.has(ext) ? 'Accept-Encoding' : ''].filter(Boolean).join(', ');
  if (vary) headers.Vary = vary;
  await sendBody(req, res, cached, headers, { tag: `${version}${ext === '.md' ? '-md' : ''}`, compressible: TEXT.has(ext), status });
  return true;
}

/**
 * Answer with `entry`: a weak ETag from `tag` (and the coding), 304 on a matching
 * `If-None-Match`, brotli/gzip when the client takes it and the body is large enough.
 */
export async function sendBody(req: IncomingMessage, res: ServerResponse, entry: BodyEntry, headers: Record<string, string>, options: { tag: string; compressible: boolean; status: number }): Promise<void> {
  const coding = options.compressible && entry.body.byteLength >= COMPRESS_MIN_BYTES ? chooseCoding(req.headers['accept-encoding'] ?? null) : undefined;
  const etag = `W/"${options.tag}${coding ? `-${coding}` : ''}"`;
  const out: Record<string, string> = { ...headers, ETag: etag };
  if (options.status === 200 && req.headers['if-none-match'] === etag) {
    res.writeHead(304, out).end();
    return;
  }
  let body: Uint8Array = entry.body;
  if (coding) {
    body = await (entry.encoded[coding] ??= compress(entry.body, coding, 'best'));
    out['Content-Encoding'] = coding;
  }
  out['Content-Length'] = String(body.byteLength);
  res.writeHead(options.status, out);
  res.end(req.method === 'HEAD' ? undefined : body);
}

// --- internal ---

interface Found {
  path: string;
  size: number;
  mtimeMs: number;
}

/** The Markdown twin of a page path (`/deals/x/` → `/deals/x/index.md`). */
function findTwin(root: string, pathname: string): Promise<Found | undefined> {
  if (extname(pathname) !== '') return Promise.resolve(undefined);
  return findFile(root, `${pathname.endsWith('/') ? pathname : `${pathname}/`}index.md`);
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
