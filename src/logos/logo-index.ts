/**
 * Which deals and startups have a logo image (build-logos.ts writes it, pages and instant search
 * read it): every other record shows its monogram, so no page asks for an image that is not there.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Slugs with an image, by kind. */
export interface LogoIndex {
  deals: string[];
  startups: string[];
}

/** `<generated>/logos/index.json`, published at the same path under the site. */
export const LOGO_INDEX_FILE = 'index.json';

/**
 * The index under `generatedDir`, read again only when the file changes (the running server
 * renders live pages with it; a content build may replace it). Empty when there is none.
 * @example logoIndex('generated').deals.includes('aws-activate') // true when it has a logo
 */
export function logoIndex(generatedDir: string): { deals: Set<string>; startups: Set<string> } {
  const path = join(generatedDir, 'logos', LOGO_INDEX_FILE);
  let stamp: string;
  try {
    const stat = statSync(path);
    stamp = `${path}:${stat.mtimeMs}:${stat.size}`;
  } catch {
    return EMPTY;
  }
  if (stamp !== read?.stamp) {
    const index = JSON.parse(readFileSync(path, 'utf8')) as LogoIndex;
    read = { stamp, sets: { deals: new Set(index.deals), startups: new Set(index.startups) } };
  }
  return read.sets;
}

// --- internal ---

const EMPTY = { deals: new Set<string>(), startups: new Set<string>() };
let read: { stamp: string; sets: { deals: Set<string>; startups: Set<string> } } | undefined;
