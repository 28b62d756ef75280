/**
 * The one drafts rule (issue 16): a record with `draft: true` is kept apart from the published
 * records, so every public output (API, pages, sitemap, llms files, Markdown twins, MCP, search
 * index, stats), all made from `deals` and `startups` alone, leaves it out by construction.
 * Drafts travel beside them (`CatalogData.drafts`, `generated/drafts.json`) for the admin.
 */
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';

/** The drafts of a catalog: never in a public answer, only in admin reads and previews. */
export interface Drafts {
  deals: Deal[];
  startups: Startup[];
}

/** The drafts of a catalog that has none (content built before drafts existed, or none saved). */
export const noDrafts = (): Drafts => ({ deals: [], startups: [] });

/**
 * Published records and drafts, each in the order given. `draft: false` says no more than its
 * absence, so a published record loses the key (a publish leaves no `draft: false` line).
 * @example splitDrafts([{ id: 'a', draft: true }, { id: 'b' }]) // { published: [{ id: 'b' }], drafts: [{ id: 'a', draft: true }] }
 */
export function splitDrafts<T extends { draft?: boolean | undefined }>(records: readonly T[]): { published: T[]; drafts: T[] } {
  const published: T[] = [];
  const drafts: T[] = [];
  for (const record of records) {
    if (record.draft === true) drafts.push(record);
    else published.push(withoutDraftFlag(record));
  }
  return { published, drafts };
}

/**
 * A record as it is kept: a published one without the `draft` key (`false` says no more than
 * its absence), the same object when it has none; a draft as it is.
 * @example withoutDraftFlag({ id: 'b', draft: false }) // { id: 'b' }
 */
export function withoutDraftFlag<T extends { draft?: boolean | undefined }>(record: T): T {
  if (record.draft === true || !('draft' in record)) return record;
  const { draft: _draft, ...rest } = record;
  return rest as T;
}
