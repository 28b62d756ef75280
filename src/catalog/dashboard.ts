/**
 * The member's dashboard (issue 18, item 4) as a pure function of their saved rows, their
 * profile, the catalog served now and today: saved items with what changed since last seen
 * (changed ones first), open deals whose last day or next deadline is near, and deals they may
 * qualify for. The API answer and the /account/ page both read it.
 */
import type { Catalog } from './catalog.ts';
import type { Deal } from '../schemas/deal.ts';
import type { DashboardDeal, DashboardItem, MemberProfile, Snapshot } from '../schemas/dashboard.ts';
import { paths } from '../agents/site-urls.ts';
import { daysBetween } from './freshness.ts';
import { mayQualify } from './may-qualify.ts';
import { changesSince, readSnapshot, snapshotOf } from './saved-changes.ts';
import { savedItemViews, type SavedRecordRef } from './saved-items.ts';

/** A saved row with the facts last seen (JSON as stored; null: never kept). */
export type SavedRowSeen = SavedRecordRef & { seen: string | null };

/** How many deals the "expiring soon" list shows. */
export const EXPIRING_SHOWN = 10;

export interface DashboardParts {
  saved: DashboardItem[];
  changed: number;
  expiringSoon: DashboardDeal[];
  mayQualify: DashboardDeal[];
  /** Items with no facts kept yet (saved before they were): what the member sees now is their starting point. */
  baseline: { kind: DashboardItem['kind']; recordId: string; snapshot: Snapshot }[];
}

/**
 * @param expiringWithinDays the site's "expiring soon" (site.yaml `freshness`)
 * @example dashboardParts(rows, { alerts: false }, catalog, '2026-11-25', 14).changed // 0
 */
export function dashboardParts(rows: readonly SavedRowSeen[], profile: MemberProfile, catalog: Catalog, today: string, expiringWithinDays: number): DashboardParts {
  const views = savedItemViews(rows, catalog, today);
  const baseline: DashboardParts['baseline'] = [];
  const saved = views.map((view, i) => {
    const row = rows[i] as SavedRowSeen;
    const now = snapshotOf(row, catalog, today);
    if (row.seen === null) baseline.push({ kind: row.kind, recordId: row.recordId, snapshot: now });
    return { ...view, changes: changesSince(readSnapshot(row.seen), now) };
  });
  // Changed first; each part keeps the newest-first order (a stable sort).
  saved.sort((a, b) => Number(b.changes.length > 0) - Number(a.changes.length > 0));
  const savedDeals = new Set(rows.filter((r) => r.kind === 'deal').map((r) => r.recordId));
  const card = (deal: Deal, extra: Partial<DashboardDeal> = {}): DashboardDeal => ({
    id: deal.id,
    slug: deal.slug,
    title: deal.title,
    provider: deal.provider,
    url: paths.deal(deal),
    ...(deal.value ? { value: deal.value } : {}),
    saved: savedDeals.has(deal.id),
    ...extra,
  });
  return {
    saved,
    changed: saved.filter((item) => item.changes.length > 0).length,
    expiringSoon: expiringDeals(catalog.deals, today, expiringWithinDays).map(({ deal, day }) => card(deal, { expiryDate: day, daysLeft: daysBetween(today, day) })),
    mayQualify: mayQualify(catalog, profile, today).map(({ deal, reasons }) => card(deal, { reasons })),
    baseline,
  };
}

// --- internal ---

/** Open deals whose last day (or a program's next deadline, when it comes first) is today or within `days`, soonest first. */
function expiringDeals(deals: readonly Deal[], today: string, days: number): { deal: Deal; day: string }[] {
  const soon: { deal: Deal; day: string }[] = [];
  for (const deal of deals) {
    if (deal.status === 'expired' || (deal.expiryDate !== undefined && deal.expiryDate < today)) continue;
    const day = [deal.expiryDate, deal.nextDeadline].filter((d): d is string => d !== undefined && d >= today).sort()[0];
    if (day !== undefined && daysBetween(today, day) <= days) soon.push({ deal, day });
  }
  return soon.sort((a, b) => a.day.localeCompare(b.day)).slice(0, EXPIRING_SHOWN);
}
