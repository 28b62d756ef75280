/**
 * Pages rendered live (functions/site/live-pages.ts), once per catalog version: the first
 * request for a changed page has Astro render it (src/pages/live/page.astro, at the page's own
 * URL), and its finished bytes are kept; that request and later ones for that page and catalog
 * get them like a built file (ETag, 304, brotli/gzip made once); so do their Markdown twins.
 * Without this, every request for a list page after a write would be rendered again, at a
 * tenth of the rate of a built file.
 */
import type { PreparedCache } from '../reads/prepared-cache.ts';
import { PAGE_CACHE_CONTROL, sendEntry, type BodyEntry } from './static-files.ts';

const HTML = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': PAGE_CACHE_CONTROL };
const MARKDOWN = { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': PAGE_CACHE_CONTROL };
const encoder = new TextEncoder();

/** Render the live page (a GET of the page's own URL); Astro's whole answer, `undefined` without Astro. */
export type RenderLivePage = () => Promise<Response | undefined>;

export class LivePageCache {
  /** Pages (and twins) by path and catalog version, in the one prepared-answer cache. */
  private readonly pages: PreparedCache;
  /** Renders under way, by path and version: concurrent first requests share one. */
  private readonly rendering = new Map<string, Promise<Rendered | undefined>>();

  constructor(pages: PreparedCache) {
    this.pages = pages;
  }

  /**
   * Answer with the page at `path` as rendered for catalog `version`, rendering it with
   * `render` when it was not yet. A render that is no whole 200 page is answered as it came
   * and not kept; `undefined` when `render` has no such page.
   */
  async serve(request: Request, path: string, version: string, render: RenderLivePage): Promise<Response | undefined> {
    let entry = this.pages.get<BodyEntry>('page', path, version);
    if (!entry) {
      const key = `${version} ${path}`;
      let pending = this.rendering.get(key);
      if (!pending) {
        pending = this.render(path, version, render).finally(() => this.rendering.delete(key));
        this.rendering.set(key, pending);
      }
      const rendered = await pending;
      if (!rendered || !('version' in rendered)) return rendered && new Response(rendered.body, { status: rendered.status, headers: rendered.headers });
      entry = rendered;
    }
    return sendEntry(request, entry, HTML, { tag: `live-${version}`, compressible: true, vary: 'Accept', status: 200 });
  }

  /** Answer with the Markdown twin of the page at `path`, made by `twin` once per catalog `version`. */
  async serveTwin(request: Request, path: string, version: string, twin: () => string): Promise<Response> {
    const key = `${path}index.md`;
    let entry = this.pages.get<BodyEntry>('page', key, version);
    if (!entry) {
      entry = { version, body: encoder.encode(twin()), encoded: {} };
      this.pages.set('page', key, version, entry, entry.body.byteLength);
    }
    return sendEntry(request, entry, MARKDOWN, { tag: `live-${version}-md`, compressible: true, vary: 'Accept', status: 200 });
  }

  // --- internal ---

  /** Render the page; a whole, uncompressed 200 answer is kept. */
  private async render(path: string, version: string, render: RenderLivePage): Promise<Rendered | undefined> {
    const response = await render();
    if (!response) return undefined;
    const body = new Uint8Array(await response.arrayBuffer());
    if (response.status !== 200 || response.headers.has('content-encoding')) return { status: response.status, headers: [...response.headers], body };
    const entry: BodyEntry = { version, body, encoded: {} };
    this.pages.set('page', path, version, entry, body.byteLength);
    return entry;
  }
}

/** A kept page, or an answer that is not one (an error), sent as it came to each request that waited for it. */
type Rendered = BodyEntry | { status: number; headers: [string, string][]; body: Uint8Array<ArrayBuffer> };
