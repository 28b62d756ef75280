/**
 * The validated content behind a catalog, kept in memory so a write re-checks and re-indexes
 * only what it changes: changed deals go through the same serialise → parse → validate path
 * as a build, cross-file rules are checked against the rest, and the deals index is rebuilt
 * (the startups index is reused).
 */
import type { CatalogData } from '../catalog/catalog.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import { DealFrontMatterSchema, type Deal } from '../schemas/deal.ts';
import { SLUG_PATTERN } from '../schemas/fields.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import { compareDeals } from '../catalog/order.ts';
import { hasErrors, shown, type Diagnostic, type StageResult } from './diagnostics.ts';
import { withChangedFiles, type ChangedFile } from './changed-files.ts';
import { toMarkdown } from './serialize.ts';
import { validateDeals } from './validate.ts';

/** Path of a deal's file inside the content root. */
export const dealPath = (slug: string): string => `deals/${slug}.md`;

/**
 * A deal file's text: front matter in schema order (then any other keys, which validation
 * will refuse), description as the body.
 */
export function dealFileText(deal: Deal): string {
  const { description, slug: _slug, ...rest } = deal as Deal & Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(DealFrontMatterSchema.shape)) ordered[key] = rest[key];
  for (const [key, value] of Object.entries(rest)) if (!(key in ordered)) ordered[key] = value;
  return toMarkdown(ordered, typeof description === 'string' ? description : '');
}

/** One deal file's text, by the slug its name gives. */
export type DealFile = ChangedFile;

/** A catalog after a write: its data, and which deals changed or went (for the search index). */
export interface ChangedCatalog {
  data: CatalogData;
  changed: Deal[];
  removedIds: string[];
}

export class ContentSnapshot {
  readonly site: Site;
  readonly categories: CategoriesFile;
  readonly deals: ReadonlyMap<string, Deal>;
  readonly startups: readonly Startup[];
  readonly synonyms: SynonymsFile | undefined;
  readonly version: string;

  constructor(data: CatalogData) {
    this.version = data.version;
    this.site = data.site;
    this.categories = data.categories;
    this.deals = new Map(data.deals.map((d) => [d.slug, d]));
    this.startups = data.startups;
    this.synonyms = data.synonyms;
  }

  /**
   * The catalog after upserting `upserts` (by slug) and removing the deals with slugs in
   * `removals`, or the diagnostics that forbid it. Nothing is written anywhere.
   */
  withDealChanges(upserts: readonly Deal[], removals: readonly string[], today: string): StageResult<ChangedCatalog | undefined> {
    const diagnostics: Diagnostic[] = [];
    const files: DealFile[] = [];
    for (const deal of upserts) {
      // The slug names the file: anything but a plain slug could write outside deals/.
      if (typeof deal.slug !== 'string' || !SLUG_PATTERN.test(deal.slug)) {
        diagnostics.push({ severity: 'error', code: 'invalid_slug', file: 'content/deals', field: 'slug', message: `expected lowercase letters, digits and single hyphens, like \`cloud-credits\`, got ${shown(deal.slug)}` });
      } else {
        files.push({ slug: deal.slug, text: dealFileText(deal) });
      }
    }
    if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
    return this.withDealFiles(files, removals, today);
  }

  /**
   * The catalog after deal files changed on disk (another instance's commits): each file's
   * text goes the same parse → validate path as a build; `removals` are slugs whose file went.
   */
  withDealFiles(files: readonly DealFile[], removals: readonly string[], today: string): StageResult<ChangedCatalog | undefined> {
    const next = withChangedFiles(this.deals, files, removals, this.version, dealPath, (entry) => validateDeals([entry], this.categories, today));
    if (!next.value) return { value: undefined, diagnostics: next.diagnostics };
    const { records, changed, removedIds, version } = next.value;
    // Startups did not change: the same (sorted) array keeps every answer built from it.
    const data: CatalogData = { version, site: this.site, categories: this.categories, deals: [...records.values()].sort(compareDeals), startups: this.startups as Startup[], ...(this.synonyms ? { synonyms: this.synonyms } : {}) };
    return { value: { data, changed, removedIds }, diagnostics: [] };
  }
}
