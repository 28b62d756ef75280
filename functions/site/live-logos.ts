/**
 * Logos changed since the site was built: an admin's upload or removal, a record renamed or
 * deleted with its logo, logo files pulled from the content remote. The build made the logos it
 * saw (generated/logos, published under /logos/); this holds what differs since, read from the
 * content folder by the build's own rules (src/logos/logo-files.ts, logo-image.ts), so the
 * running server serves a new image at once at its usual address, and the pages that show it
 * are rendered live (live-pages.ts) until the next build makes them part of the site.
 *
 * A logo file removed leaves the record with its monogram until the next build, which may
 * then take its `logoUrl` (downloads happen only at build).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { paths } from '../../src/agents/site-urls.ts';
import { byLogoRank, logoFolder, logoSlugOf, type LogoKind, type LogoRef } from '../../src/logos/logo-files.ts';
import { optimiseLogo } from '../../src/logos/logo-image.ts';
import type { LogoIndex } from '../../src/logos/logo-index.ts';
import { sendEntry, type BodyEntry } from './static-files.ts';

/** Which records the build made an image for (src/logos/logo-index.ts `logoIndex`). */
export type BuiltLogos = () => { deals: ReadonlySet<string>; startups: ReadonlySet<string> };

export class LiveLogos {
  /** Images by `<kind>/<slug>` since the build (the bytes, their hash as version); `null`: none now (the monogram). */
  private readonly images = new Map<string, BodyEntry | null>();
  private changes = 0;
  private readonly contentRoot: string;
  private readonly built: BuiltLogos;

  /**
   * @param contentRoot the content folder the store keeps as of its last commit
   * @param built the build's logo index
   */
  constructor(contentRoot: string, built: BuiltLogos) {
    this.contentRoot = contentRoot;
    this.built = built;
  }

  /**
   * Read the logos of these records again from the content folder, after a commit changed
   * their files (one at a time: each optimised as the build would, a few ms). Never fails: a
   * file that cannot be read or used leaves the record with its monogram, as the build would.
   * @example await logos.refresh([{ kind: 'deals', slug: 'acme' }])
   */
  async refresh(refs: readonly LogoRef[]): Promise<void> {
    const seen = new Set<string>();
    for (const { kind, slug } of refs) {
      const key = `${kind}/${slug}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.images.set(key, await this.imageFromFiles(kind, slug));
      this.changes += 1;
    }
  }

  /**
   * What differs from the build, as part of a live page's version: '' while nothing does.
   * Pages rendered with other logos are then made again.
   */
  get stamp(): string {
    return this.changes === 0 ? '' : `logos${this.changes}`;
  }

  /** Whether a record's logo changed since the build (its page shows another image now). */
  changed(kind: LogoKind, slug: string): boolean {
    return this.images.has(`${kind}/${slug}`);
  }

  /** Whether a record has an image now: as changed since the build, or as built. */
  has(kind: LogoKind, slug: string): boolean {
    const image = this.images.get(`${kind}/${slug}`);
    return image === undefined ? this.built()[kind].has(slug) : image !== null;
  }

  /** A changed record's image (`null`: it has none now); `undefined` when the built one stands. */
  image(kind: LogoKind, slug: string): BodyEntry | null | undefined {
    return this.images.get(`${kind}/${slug}`);
  }

  /**
   * The logo index as it is now (`/logos/index.json`): the build's, with the changes, of the
   * records `listed` says are public (a draft's logo is served, for its preview, but not listed).
   */
  index(listed: (kind: LogoKind, slug: string) => boolean): LogoIndex {
    const built = this.built();
    const index: LogoIndex = { deals: [], startups: [] };
    for (const kind of ['deals', 'startups'] as const) {
      const slugs = new Set(built[kind]);
      for (const [key, image] of this.images) {
        const [of, slug = ''] = key.split('/');
        if (of !== kind) continue;
        if (image && listed(kind, slug)) slugs.add(slug);
        else slugs.delete(slug);
      }
      index[kind] = [...slugs].sort();
    }
    return index;
  }

  // --- internal ---

  /** The image the build would make of the record's committed file now, or null (none, or not a usable image). */
  private async imageFromFiles(kind: LogoKind, slug: string): Promise<BodyEntry | null> {
    const folder = join(this.contentRoot, logoFolder(kind));
    const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
    const file = byLogoRank(names).find((name) => logoSlugOf(name) === slug);
    if (!file) return null;
    const bytes = await readFile(join(folder, file)).catch(() => undefined);
    const made = bytes && (await optimiseLogo(bytes));
    if (!made?.ok) return null;
    return { version: createHash('sha256').update(made.webp).digest('base64url').slice(0, 16), body: new Uint8Array(made.webp), encoded: {} };
  }
}

/**
 * The answer for `/logos/<kind>/<slug>.webp` when that logo changed since the build: the new
 * image (revalidated on every use, so a replaced logo shows at once), or a 404 when the record
 * has none now; for `/logos/index.json` once any changed, the index with the public records
 * (`listed`); `undefined` for every other path (the built file answers).
 */
export async function changedLogo(request: Request, pathname: string, logos: LiveLogos, listed: (kind: LogoKind, slug: string) => boolean): Promise<Response | undefined> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (pathname === paths.logoIndex && logos.stamp) {
    return new Response(request.method === 'HEAD' ? null : JSON.stringify(logos.index(listed)), { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, no-cache' } });
  }
  const match = LOGO_PATH.exec(pathname);
  const image = match ? logos.image(match[1] as LogoKind, match[2] as string) : undefined;
  if (image === undefined) return undefined;
  if (image === null) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' } });
  return sendEntry(
    request,
    image,
    { 'Content-Type': 'image/webp', 'Cache-Control': 'public, no-cache', 'X-Content-Type-Options': 'nosniff' },
    { tag: `logo-${image.version}`, compressible: false, status: 200 },
  );
}

// --- internal ---

const LOGO_PATH = /^\/logos\/(deals|startups)\/([a-z0-9-]+)\.webp$/;
