/**
 * Where editors' logo files live in the content folder, `logos/<deals|startups>/<slug>.<ext>`,
 * and which one counts when a slug has several: one rule for the build (build-logos.ts), the
 * admin's upload and the running server (functions/site/live-logos.ts).
 */
import { readdir } from 'node:fs/promises';
import { extname } from 'node:path';

export const LOGO_KINDS = ['deals', 'startups'] as const;
export type LogoKind = (typeof LOGO_KINDS)[number];

/** One record's logo. */
export interface LogoRef {
  kind: LogoKind;
  slug: string;
}

/** File types an editor may commit, in the order one is chosen when a slug has several. */
export const LOGO_EXTENSIONS = ['.svg', '.png', '.webp', '.avif', '.jpg', '.jpeg', '.gif'] as const;

/** The folder of a kind's logo files, relative to the content root. */
export const logoFolder = (kind: LogoKind): string => `logos/${kind}`;

/**
 * Names of a folder's logo files in the order they count: by type (`LOGO_EXTENSIONS`), then by
 * name; names of other types last.
 */
export function byLogoRank(names: readonly string[]): string[] {
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * The names in a logo folder on disk (hidden files left out), in the order they count
 * (`byLogoRank`); none when the folder does not exist or cannot be read.
 * @example await logoFolderNames('content/logos/deals') // ['acme.svg', 'acme.png', 'notes.txt']
 */
export async function logoFolderNames(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return byLogoRank(names.filter((name) => !name.startsWith('.')));
}

/**
 * The slug a logo file is for (its name without the type), or undefined for other files.
 * @example logoSlugOf('acme-cloud.png') // 'acme-cloud'
 */
export function logoSlugOf(name: string): string | undefined {
  return rank(name) < LOGO_EXTENSIONS.length ? name.slice(0, name.length - extname(name).length) : undefined;
}

/**
 * The kind and slug of a content path under `logos/`, or undefined for any other path.
 * @example logoOfPath('logos/deals/acme.svg') // { kind: 'deals', slug: 'acme' }
 */
export function logoOfPath(path: string): LogoRef | undefined {
  const [folder, kind, name, ...rest] = path.split('/');
  if (folder !== 'logos' || rest.length > 0 || !name || !(LOGO_KINDS as readonly string[]).includes(kind ?? '')) return undefined;
  const slug = logoSlugOf(name);
  return slug ? { kind: kind as LogoKind, slug } : undefined;
}

// --- internal ---

function rank(name: string): number {
  const index = (LOGO_EXTENSIONS as readonly string[]).indexOf(extname(name).toLowerCase());
  return index === -1 ? LOGO_EXTENSIONS.length : index;
}
