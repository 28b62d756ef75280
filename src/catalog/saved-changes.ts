/**
 * What changed on a member's saved item since they last looked (issue 18, item 4): the watched
 * facts of the record as served now (its state, title, headline value, status, expiry date; a
 * startup's sale and price) against a snapshot taken when the member last marked it as seen, or
 * when an alert last told them. Pure; the snapshots live in the accounts' database.
 */
import type { Catalog } from './catalog.ts';
import type { SavedRecordRef } from './saved-items.ts';
import { WATCHED_FIELDS, type Snapshot, type WatchedChange } from '../schemas/dashboard.ts';
import { money } from './labels.ts';

/**
 * The watched facts of a saved record now (`state: removed` and its title as of saving when the
 * catalog no longer serves it).
 * @param today `YYYY-MM-DD`: a deal whose expiry date is before it has expired
 */
export function snapshotOf(ref: Pick<SavedRecordRef, 'kind' | 'recordId' | 'title'>, catalog: Pick<Catalog, 'dealById' | 'startupById'>, today: string): Snapshot {
  if (ref.kind === 'deal') {
    const deal = catalog.dealById.get(ref.recordId);
    if (!deal) return { state: 'removed', title: ref.title };
    const expired = deal.status === 'expired' || (deal.expiryDate !== undefined && deal.expiryDate < today);
    return defined({ state: expired ? 'expired' : 'live', title: deal.title, value: deal.value, status: deal.status, expiryDate: deal.expiryDate });
  }
  const startup = catalog.startupById.get(ref.recordId);
  if (!startup) return { state: 'removed', title: ref.title };
  return defined({ state: 'live', title: startup.name, forSale: startup.forSale ? 'for sale' : 'not for sale', askingPrice: money(startup.askingPrice, startup.askingPriceDisplay) });
}

/**
 * The watched facts that differ, in `WATCHED_FIELDS` order; none without an earlier snapshot
 * (nothing to compare with: the item was saved before snapshots were kept).
 * @example changesSince({ value: '$5,000' }, { value: '$10,000' }) // [{ field: 'value', from: '$5,000', to: '$10,000' }]
 */
export function changesSince(before: Snapshot | undefined, now: Snapshot): WatchedChange[] {
  if (!before) return [];
  const changes: WatchedChange[] = [];
  for (const field of WATCHED_FIELDS) {
    const from = before[field];
    const to = now[field];
    if (from === to) continue;
    changes.push({ field, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) });
  }
  return changes;
}

/** A snapshot as stored (JSON text), or undefined for none or text that is not one. */
export function readSnapshot(text: string | null | undefined): Snapshot | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const snapshot: Snapshot = {};
    for (const field of WATCHED_FIELDS) {
      const fact = (value as Record<string, unknown>)[field];
      if (typeof fact === 'string') snapshot[field] = fact;
    }
    return snapshot;
  } catch {
    return undefined;
  }
}

// --- internal ---

function defined(snapshot: Record<string, string | undefined>): Snapshot {
  return Object.fromEntries(Object.entries(snapshot).filter(([, value]) => value !== undefined)) as Snapshot;
}
