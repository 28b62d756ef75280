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
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { paths } from '../../src/agents/site-urls.ts';
import type { Catalog } from '../../src/catalog/catalog.ts';
import { logoFolder, logoFolderNames, logoSlugOf, type LogoKind, type LogoRef } from '../../src/logos/logo-files.ts';
import { optimiseLogo } from '../../src/logos/logo-image.ts';
import { logoIndex, type LogoIndex } from '../../src/logos/logo-index.ts';
import { sendEntry, type BodyEntry } from './static-files.ts';

export class LiveLogos {
  /** Images by `<kind>/<slug>` since the build (the bytes, their hash as version); `null`: none now (the monogram). */
  private readonly images = new Map<string, BodyEntry | null>();
  private stamped = '';
  private readonly contentRoot: string;
  private readonly generatedDir: string;

  /**
   * @param contentRoot the content folder the store keeps as of its last commit
   * @param generatedDir where the build wrote its logos (`<generated>/logos/`, src/logos/build-logos.ts)
   */
  constructor(contentRoot: string, generatedDir: string) {
    this.contentRoot = contentRoot;
    this.generatedDir = generatedDir;
  }

  /**
   * Read the logos of these records again from the content folder, after a commit changed
   * their files: each kind's folder listed once, each image made as the build would (a few ms;
   * a finished tile, as an upload commits, is taken as it is). Never fails: a file that cannot
   * be read or used leaves the record with its monogram, as the build would.
   * @example await logos.refresh([{ kind: 'deals', slug: 'acme' }])
   */
  async refresh(refs: readonly LogoRef[]): Promise<void> {
    const listed = new Map<LogoKind, string[]>();
    for (const { kind, slug } of refs) {
      let names = listed.get(kind);
      if (!names) listed.set(kind, (names = await logoFolderNames(join(this.contentRoot, logoFolder(kind)))));
      const file = names.find((name) => logoSlugOf(name) === slug);
      this.images.set(`${kind}/${slug}`, file ? await this.imageOf(join(this.contentRoot, logoFolder(kind), file)) : null);
    }
    this.stamped = stampOf(this.images);
  }

  /**
   * What differs from the build, as part of a live page's version: '' while nothing does; the
   * same changes give the same stamp on every instance (a page's ETag is made of it).
   */
  get stamp(): string {
    return this.stamped;
  }

  /** Whether a record has an image now: as changed since the build, or as built. */
  has(kind: LogoKind, slug: string): boolean {
    const image = this.images.get(`${kind}/${slug}`);
    return image === undefined ? logoIndex(this.generatedDir)[kind].has(slug) : image !== null;
  }

  /** `locals.hasLogo` for pages of `catalog`: a published record with an image now (a draft's logo is shown nowhere public). */
  shownIn(catalog: Catalog): (kind: LogoKind, slug: string) => boolean {
    return (kind, slug) => this.has(kind, slug) && isPublic(catalog, kind, slug);
  }

  /** A changed record's image (`null`: it has none now); `undefined` when the built one stands. */
  image(kind: LogoKind, slug: string): BodyEntry | null | undefined {
    return this.images.get(`${kind}/${slug}`);
  }

  /** The image a record shows now, changed or built, drafts too (the admin's Logo panel); `undefined`: its monogram. */
  async current(kind: LogoKind, slug: string): Promise<Uint8Array | undefined> {
    const changed = this.images.get(`${kind}/${slug}`);
    if (changed !== undefined) return changed?.body;
    if (!logoIndex(this.generatedDir)[kind].has(slug)) return undefined;
    return readFile(join(this.generatedDir, 'logos', kind, `${slug}.webp`)).catch(() => undefined);
  }

  /**
   * The logo index as it is now (`/logos/index.json`): the build's, with the changes, of the
   * records `listed` says are public (a draft's logo is neither listed nor served).
   */
  index(listed: (kind: LogoKind, slug: string) => boolean): LogoIndex {
    const built = logoIndex(this.generatedDir);
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

  private async imageOf(file: string): Promise<BodyEntry | null> {
    const bytes = await readFile(file).catch(() => undefined);
    const made = bytes && (await optimiseLogo(bytes));
    if (!made?.ok) return null;
    return { version: createHash('sha256').update(made.webp).digest('base64url').slice(0, 16), body: new Uint8Array(made.webp), encoded: {} };
  }
}

/**
 * The answer for `/logos/<kind>/<slug>.webp` when that logo changed since the build: the new
 * image (revalidated on every use, so a replaced logo shows at once), or a 404 when the record
 * has none now or is no public one (`listed`: a draft); for `/logos/index.json` once any changed, the index with the public records
 * (`listed`); `undefined` for every other path (the built file answers).
 */
export async function changedLogo(request: Request, pathname: string, logos: LiveLogos, listed: (kind: LogoKind, slug: string) => boolean): Promise<Response | undefined> {
  // Nothing changed since the build (the usual case): every path is the built site's.
  if (!logos.stamp || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
  if (pathname === paths.logoIndex) {
    return new Response(request.method === 'HEAD' ? null : JSON.stringify(logos.index(listed)), { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, no-cache' } });
  }
  const match = LOGO_PATH.exec(pathname);
  const [kind, slug] = match ? [match[1] as LogoKind, match[2] as string] : [];
  const image = kind && slug ? logos.image(kind, slug) : undefined;
  if (image === undefined) return undefined;
  // A draft's image (or one of a slug nobody has) is in no public output.
  if (image === null || !listed(kind as LogoKind, slug as string))
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' } });
  return sendEntry(
    request,
    image,
    { 'Content-Type': 'image/webp', 'Cache-Control': 'public, no-cache', 'X-Content-Type-Options': 'nosniff' },
    { tag: `logo-${image.version}`, compressible: false, status: 200 },
  );
}

/** Whether a deal or startup is published: only those have their logos served and shown. */
export function isPublic(catalog: Catalog, kind: LogoKind, slug: string): boolean {
  return (kind === 'deals' ? catalog.dealBySlug : catalog.startupBySlug).has(slug);
}

// --- internal ---

const LOGO_PATH = /^\/logos\/(deals|startups)\/([a-z0-9-]+)\.webp$/;

/** A digest of what changed: the same changes, the same stamp. */
function stampOf(images: ReadonlyMap<string, BodyEntry | null>): string {
  if (images.size === 0) return '';
  const hash = createHash('sha256');
  for (const [key, image] of [...images].sort(([a], [b]) => a.localeCompare(b))) hash.update(`${key}=${image?.version ?? '-'}\n`);
  return `-logos-${hash.digest('base64url').slice(0, 12)}`;
}
