/**
 * The validated content behind a catalog, kept in memory so a write re-checks and re-indexes
 * only what it changes: changed deals go through the same serialise → parse → validate path
 * as a build, cross-file rules are checked against the rest, and the deals index is rebuilt
 * (the startups index is reused).
 */
import { createHash } from 'node:crypto';
import type { CatalogData } from '../catalog/catalog.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import { DealFrontMatterSchema, type Deal } from '../schemas/deal.ts';
import { SLUG_PATTERN } from '../schemas/fields.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import { compareDeals } from '../catalog/order.ts';
import { splitDrafts } from '../catalog/drafts.ts';
import { hasErrors, shown, type Diagnostic, type StageResult } from './diagnostics.ts';
import { parseEntry } from './parse.ts';
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
export interface DealFile {
  slug: string;
  text: string;
}

/** A catalog after a write: its data, and which published deals changed or went (for the search index; a deal now a draft went). */
export interface ChangedCatalog {
  data: CatalogData;
  changed: Deal[];
  removedIds: string[];
}

export class ContentSnapshot {
  readonly site: Site;
  readonly categories: CategoriesFile;
  /** Every deal by slug, drafts included (a draft's slug and id are taken too). */
  readonly deals: ReadonlyMap<string, Deal>;
  readonly startups: readonly Startup[];
  readonly startupDrafts: readonly Startup[];
  readonly synonyms: SynonymsFile | undefined;
  readonly version: string;

  constructor(data: CatalogData) {
    this.version = data.version;
    this.site = data.site;
    this.categories = data.categories;
    this.deals = new Map([...data.deals, ...(data.drafts?.deals ?? [])].map((d) => [d.slug, d]));
    this.startups = data.startups;
    this.startupDrafts = data.drafts?.startups ?? [];
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
    const next = new Map(this.deals);
    for (const slug of removals) next.delete(slug);
    const diagnostics: Diagnostic[] = [];
    const changed: Deal[] = [];
    for (const file of files) {
      const parsed = parseEntry({ path: `content/${dealPath(file.slug)}`, text: file.text });
      diagnostics.push(...parsed.diagnostics);
      if (!parsed.value) continue;
      const checked = validateDeals([parsed.value], this.categories, today);
      diagnostics.push(...checked.diagnostics.filter((d) => d.severity === 'error'));
      const record = checked.value[0]?.record;
      if (record) {
        next.set(record.slug, record);
        changed.push(record);
      }
    }
    diagnostics.push(...duplicateIds(next, changed));
    if (hasErrors(diagnostics)) return { value: undefined, diagnostics };

    const removedIds = removals.map((slug) => this.deals.get(slug)?.id).filter((id): id is string => id !== undefined);
    const version = createHash('sha256').update(JSON.stringify([this.version, changed, removedIds])).digest('hex').slice(0, 16);
    // The drafts rule of a build (catalog/drafts.ts): a deal saved as a draft leaves the public deals and the index.
    const deals = splitDrafts([...next.values()].sort(compareDeals));
    const published = new Set(changed.filter((d) => d.draft !== true).map((d) => d.slug));
    const drafted = changed.filter((d) => d.draft === true).map((d) => d.id);
    // Startups did not change: the same (sorted) array keeps every answer built from it.
    const data: CatalogData = {
      version,
      site: this.site,
      categories: this.categories,
      deals: deals.published,
      startups: this.startups as Startup[],
      ...(this.synonyms ? { synonyms: this.synonyms } : {}),
      drafts: { deals: deals.drafts, startups: this.startupDrafts as Startup[] },
    };
    return { value: { data, changed: deals.published.filter((d) => published.has(d.slug)), removedIds: [...removedIds, ...drafted] }, diagnostics: [] };
  }
}

// --- internal ---

function duplicateIds(deals: ReadonlyMap<string, Deal>, changed: readonly Deal[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const slugsById = new Map<string, string[]>();
  for (const deal of deals.values()) slugsById.set(deal.id, [...(slugsById.get(deal.id) ?? []), deal.slug]);
  for (const deal of changed) {
    for (const otherSlug of slugsById.get(deal.id) ?? []) {
      if (otherSlug !== deal.slug) {
        diagnostics.push({
          severity: 'error',
          code: 'duplicate_id',
          file: `content/${dealPath(deal.slug)}`,
          field: 'id',
          message: `id ${shown(deal.id)} is already used by ${shown(otherSlug)}`,
        });
      }
    }
  }
  return diagnostics;
}
