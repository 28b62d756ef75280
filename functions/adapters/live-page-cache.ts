/**
 * Pages rendered live (functions/live-pages.ts), once per catalog version: the first
 * request for a changed page is rendered by Astro and sent as it renders, and its bytes are
 * kept; later requests for that page and catalog get them like a built file (ETag, 304,
 * brotli/gzip made once); so are their Markdown twins. Without this, every request for a list
 * page after a write would be rendered again, at a tenth of the rate of a built file.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LruCache } from '../http/lru-cache.ts';
import { sendBody, type BodyEntry } from './static-files.ts';

const HTML = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=60', Vary: 'Accept, Accept-Encoding' };
const MARKDOWN = { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=60', Vary: 'Accept, Accept-Encoding' };

export class LivePageCache {
  /** One entry per page (and per twin) path, the newest version winning; bounded by count and bytes. */
  private readonly pages = new LruCache<BodyEntry>(500, 32 * 1024 * 1024, (page) => page.body.byteLength);

  /** Answer with the page at `path` as rendered for catalog `version`; false when it was not rendered yet. */
  async serve(req: IncomingMessage, res: ServerResponse, path: string, version: string): Promise<boolean> {
    const entry = this.pages.get(path);
    if (!entry || entry.version !== version) return false;
    await sendBody(req, res, entry, HTML, { tag: `live-${version}`, compressible: true, status: 200 });
    return true;
  }

  /** Answer with the Markdown twin of the page at `path`, made by `twin` once per catalog `version`. */
  async serveTwin(req: IncomingMessage, res: ServerResponse, path: string, version: string, twin: () => string): Promise<void> {
    const key = `${path}index.md`;
    let entry = this.pages.get(key);
    if (!entry || entry.version !== version) {
      entry = { version, body: Buffer.from(twin()), encoded: {} };
      this.pages.set(key, entry);
    }
    await sendBody(req, res, entry, MARKDOWN, { tag: `live-${version}-md`, compressible: true, status: 200 });
  }

  /** Keep the bytes `res` is about to send (a whole 200 answer to a GET) as the page at `path` for `version`. */
  capture(req: IncomingMessage, res: ServerResponse, path: string, version: string): void {
    if (req.method !== 'GET') return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as ServerResponse['write'];
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] !== 'function') keep(args[0], args[1]);
      return end(...args);
    }) as ServerResponse['end'];
    res.once('finish', () => {
      if (res.statusCode === 200 && res.getHeader('content-encoding') === undefined) this.pages.set(path, { version, body: Buffer.concat(chunks), encoded: {} });
    });
  }
}
