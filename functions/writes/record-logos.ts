/**
 * A record's logo files in the content store (`logos/<deals|startups>/<slug>.<ext>`,
 * src/logos/logo-files.ts), and how they follow the record: a rename moves them to the new
 * slug (replacing any files already there), a delete removes them, in the same commit as the
 * record's file, so no logo is left under a slug nobody has (the build would report it as
 * stray) and a record renamed onto a slug is not shown a logo left there.
 */
import type { Catalog } from '../../src/catalog/catalog.ts';
import { byLogoRank, logoFolder, logoSlugOf, type LogoKind } from '../../src/logos/logo-files.ts';
import type { ContentRecord } from '../../src/pipeline/record-files.ts';
import type { Deps } from '../deps.ts';
import { readContentBytes } from '../store/store-rules.ts';
import type { ContentChange } from '../store/content-store.ts';
import type { RecordKind } from './record-kinds.ts';

/**
 * Paths of a record's logo files (any type), relative to the content root.
 * @example await logoFilesOf(deps.store, 'deals', 'acme') // ['logos/deals/acme.png']
 */
export async function logoFilesOf(store: Pick<Deps['store'], 'list'>, kind: LogoKind, slug: string): Promise<string[]> {
  return (await logoFilesBySlug(store, kind)).get(slug) ?? [];
}

/**
 * The logo file changes that go with a record change: for each slug that goes (`removals`),
 * its files move to the slug of the upsert that has its id (a rename), or are deleted.
 */
export async function logoChangesFor<T extends ContentRecord>(
  store: Pick<Deps['store'], 'list' | 'root'>,
  kind: RecordKind<T>,
  current: Catalog,
  change: { upserts: readonly T[]; removals: readonly string[] },
): Promise<ContentChange[]> {
  const written = new Set(change.upserts.map((record) => record.slug));
  const going = change.removals.filter((slug) => !written.has(slug));
  if (going.length === 0) return [];
  // One listing of the folder for the whole change (a bulk delete names thousands of slugs).
  const files = await logoFilesBySlug(store, kind.logos);
  const renamedTo = new Map<string, string>();
  for (const record of change.upserts) {
    const before = kind.byId(current).get(record.id)?.slug;
    if (before !== undefined && before !== record.slug) renamedTo.set(before, record.slug);
  }
  const changes = new Map<string, ContentChange>();
  for (const slug of going) {
    const to = renamedTo.get(slug);
    // Files already under the new slug (left by hand, or by a record deleted before) would be
    // taken for its logo, even over the one moved there: they go.
    for (const path of to === undefined ? [] : (files.get(to) ?? [])) changes.set(path, { path, text: null });
    for (const path of files.get(slug) ?? []) {
      changes.set(path, { path, text: null });
      const bytes = to === undefined ? undefined : await readContentBytes(store.root, path);
      const moved = `${logoFolder(kind.logos)}/${to}${path.slice(path.lastIndexOf('.'))}`;
      if (bytes) changes.set(moved, { path: moved, text: bytes });
    }
  }
  return [...changes.values()];
}

// --- internal ---

/** The logo files of a kind's folder by the slug they are for. */
async function logoFilesBySlug(store: Pick<Deps['store'], 'list'>, kind: LogoKind): Promise<Map<string, string[]>> {
  const bySlug = new Map<string, string[]>();
  // In the order they count (logo-files.ts): the first of a slug is the one the build uses.
  for (const name of byLogoRank(await store.list(logoFolder(kind)))) {
    const slug = logoSlugOf(name);
    if (slug !== undefined) bySlug.set(slug, [...(bySlug.get(slug) ?? []), `${logoFolder(kind)}/${name}`]);
  }
  return bySlug;
}
