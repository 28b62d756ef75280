/**
 * A member's saved items joined with the catalog served now (issue 18, item 3): by record id,
 * so a renamed record shows its new title and page; a deal that ended shows as `expired`; a
 * record no longer in the catalog shows as `removed`, named by its title as of saving. Pure:
 * the API answer and the /account/saved/ page both read it.
 */
import { paths } from '../agents/site-urls.ts';
import type { Catalog } from './catalog.ts';
import type { SavedItem, SavedKind } from '../schemas/saved.ts';

/** A saved item as stored (functions/members/saved-store.ts). */
export interface SavedRecordRef {
  kind: SavedKind;
  recordId: string;
  title: string;
  slug: string;
  savedAt: string;
}

/** The public records by id (drafts are in neither). */
export type RecordsById = Pick<Catalog, 'dealById' | 'startupById'>;

/**
 * @param today the UTC day (`YYYY-MM-DD`): a deal whose expiry date is before it has expired
 * @example savedItemViews(rows, catalog, '2026-05-01')[0].state // 'live'
 */
export function savedItemViews(rows: readonly SavedRecordRef[], catalog: RecordsById, today: string): SavedItem[] {
  return rows.map((row) => {
    const base = { kind: row.kind, id: row.recordId, savedAt: row.savedAt };
    if (row.kind === 'deal') {
      const deal = catalog.dealById.get(row.recordId);
      if (!deal) return { ...base, state: 'removed', title: row.title, slug: row.slug };
      // DESIGN: a passed expiry date ends a deal even before an editor marks it expired.
      const expired = deal.status === 'expired' || (deal.expiryDate !== undefined && deal.expiryDate < today);
      return {
        ...base,
        state: expired ? 'expired' : 'live',
        title: deal.title,
        slug: deal.slug,
        url: paths.deal(deal),
        status: deal.status,
        ...(deal.expiryDate ? { expiryDate: deal.expiryDate } : {}),
      };
    }
    const startup = catalog.startupById.get(row.recordId);
    if (!startup) return { ...base, state: 'removed', title: row.title, slug: row.slug };
    return { ...base, state: 'live', title: startup.name, slug: startup.slug, url: paths.startup(startup), forSale: startup.forSale };
  });
}

/** The saved ids by kind (what the pages' save buttons are marked from). */
export function savedIds(rows: readonly Pick<SavedRecordRef, 'kind' | 'recordId'>[]): Record<SavedKind, string[]> {
  const ids: Record<SavedKind, string[]> = { deal: [], startup: [] };
  for (const row of rows) ids[row.kind].push(row.recordId);
  return ids;
}
