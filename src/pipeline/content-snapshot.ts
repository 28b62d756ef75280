/**
 * The validated content behind a catalog, kept in memory so a write re-checks and re-indexes
 * only what it changes: changed deals go through the same serialise → parse → validate path
 * as a build (an updated deal written into its existing file, deal-file.ts), cross-file rules
 * are checked against the rest, and the deals index is rebuilt (the startups index is reused).
 */
import { createHash } from 'node:crypto';
import type { CatalogData } from '../catalog/catalog.ts';
import type { CategoriesFile } from '../schemas/category.ts';
import type { Deal } from '../schemas/deal.ts';
import { SLUG_PATTERN } from '../schemas/fields.ts';
import type { Site } from '../schemas/site.ts';
import type { Startup } from '../schemas/startup.ts';
import type { SynonymsFile } from '../schemas/synonyms.ts';
import { compareDeals } from '../catalog/order.ts';
import { dealFileText, dealPath, editedDealFileText } from './deal-file.ts';
import { hasErrors, shown, type Diagnostic, type StageResult } from './diagnostics.ts';
import { parseEntry } from './parse.ts';
import { validateDeals } from './validate.ts';

/** One deal file's text, by the slug its name gives. */
export interface DealFile {
  slug: string;
  text: string;
}

/** A catalog after a write: its data, which deals changed or went (for the search index), and the files that hold the changed deals. */
export interface ChangedCatalog {
  data: CatalogData;
  changed: Deal[];
  removedIds: string[];
  files: DealFile[];
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
   * `removals`, or the diagnostics that forbid it; nothing is written anywhere. `originals`
   * holds the current text of deal files by slug: an upsert of a deal this catalog has (by id)
   * edits its file in place (only the changed fields change), any other one is a new file.
   */
  withDealChanges(upserts: readonly Deal[], removals: readonly string[], today: string, originals: ReadonlyMap<string, string> = new Map()): StageResult<ChangedCatalog | undefined> {
    const diagnostics: Diagnostic[] = [];
    const fresh: DealFile[] = [];
    for (const deal of upserts) {
      // The slug names the file: anything but a plain slug could write outside deals/.
      if (typeof deal.slug !== 'string' || !SLUG_PATTERN.test(deal.slug)) {
        diagnostics.push({ severity: 'error', code: 'invalid_slug', file: 'content/deals', field: 'slug', message: `expected lowercase letters, digits and single hyphens, like \`cloud-credits\`, got ${shown(deal.slug)}` });
      } else {
        fresh.push({ slug: deal.slug, text: dealFileText(deal) });
      }
    }
    if (hasErrors(diagnostics)) return { value: undefined, diagnostics };
    const checked = this.withDealFiles(fresh, removals, today);
    if (!checked.value) return checked;

    // Files hold the validated records (defaults filled, links normalised), as a build reads them back.
    const records = new Map(checked.value.changed.map((d) => [d.slug, d]));
    const byId = originals.size > 0 ? new Map([...this.deals.values()].map((d) => [d.id, d])) : new Map<string, Deal>();
    let edited = false;
    const files = fresh.map(({ slug }) => {
      const record = records.get(slug) as Deal;
      const before = byId.get(record.id);
      const original = before && originals.get(before.slug);
      if (!before || original === undefined) return { slug, text: dealFileText(record) };
      edited = true;
      return { slug, text: editedDealFileText(original, before, record) };
    });
    if (!edited) return { value: { ...checked.value, files }, diagnostics: checked.diagnostics };
    // An edited file also keeps what it held beyond the catalog's copy (a hand edit not yet
    // indexed): what is served is read back from the files as written.
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
    // Startups did not change: the same (sorted) array keeps every answer built from it.
    const data: CatalogData = { version, site: this.site, categories: this.categories, deals: [...next.values()].sort(compareDeals), startups: this.startups as Startup[], ...(this.synonyms ? { synonyms: this.synonyms } : {}) };
    return { value: { data, changed, removedIds, files: [...files] }, diagnostics: [] };
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
