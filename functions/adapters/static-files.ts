/**
 * Static files from Astro's build output, for the Node adapter: safe path resolution inside
 * the root, directory index pages, ETag/304, and a long cache for Astro's hashed assets.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

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

/**
 * Serve `pathname` from `root` if such a file exists; returns false (nothing written) otherwise.
 */
export async function serveStatic(req: IncomingMessage, res: ServerResponse, root: string, pathname: string): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const file = await findFile(root, pathname);
  if (!file) return false;
  const etag = `W/"${file.size.toString(36)}-${Math.floor(file.mtimeMs).toString(36)}"`;
  const headers: Record<string, string> = {
    'Content-Type': TYPES[extname(file.path)] ?? 'application/octet-stream',
    ETag: etag,
    'Cache-Control': pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return true;
  }
  headers['Content-Length'] = String(file.size);
  res.writeHead(200, headers);
  if (req.method === 'HEAD') res.end();
  else createReadStream(file.path).pipe(res);
  return true;
}

// --- internal ---

async function findFile(root: string, pathname: string): Promise<{ path: string; size: number; mtimeMs: number } | undefined> {
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
