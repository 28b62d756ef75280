/**
 * What a member's alert digest tells (issue 18, item 4): saved items whose watched facts changed
 * since the last digest told them, and saved deals whose last day comes within `warnDays` and
 * were not warned of for that day yet. Pure: the rows (with what the last digest told) and the
 * catalog in; the news, and what to keep as told once it is sent, out.
 */
import { paths } from '../agents/site-urls.ts';
import type { Catalog } from './catalog.ts';
import type { Snapshot, WatchedChange } from '../schemas/dashboard.ts';
import type { SavedKind } from '../schemas/saved.ts';
import { daysBetween } from './freshness.ts';
import { changesSince, readSnapshot, snapshotOf } from './saved-changes.ts';
import type { SavedRecordRef } from './saved-items.ts';

/** A saved row with what the last digest told (JSON as stored) and the expiry it warned of. */
export type SavedRowAlerted = SavedRecordRef & { alerted: string | null; expiryWarned: string | null };

/** How many days before a saved deal's last day the digest warns. */
export const WARN_DAYS = 7;

export interface Digest {
  changed: { title: string; url?: string; changes: WatchedChange[] }[];
  ending: { title: string; url: string; expiryDate: string; daysLeft: number }[];
  /** Once the digest is sent (or when there is nothing to send, for items never told): the facts to keep as told. */
  told: { kind: SavedKind; recordId: string; snapshot: Snapshot; expiryWarned?: string }[];
}

/**
 * @example alertDigest(rows, catalog, '2026-11-25').changed.length // 1
 */
export function alertDigest(rows: readonly SavedRowAlerted[], catalog: Pick<Catalog, 'dealById' | 'startupById'>, today: string, warnDays = WARN_DAYS): Digest {
  const digest: Digest = { changed: [], ending: [], told: [] };
  for (const row of rows) {
    const now = snapshotOf(row, catalog, today);
    const before = readSnapshot(row.alerted);
    const changes = changesSince(before, now);
    const deal = row.kind === 'deal' ? catalog.dealById.get(row.recordId) : undefined;
    const startup = row.kind === 'startup' ? catalog.startupById.get(row.recordId) : undefined;
    const url = deal ? paths.deal(deal) : startup ? paths.startup(startup) : undefined;
    const title = typeof now.title === 'string' ? now.title : row.title;
    if (changes.length > 0) digest.changed.push({ title, ...(url ? { url } : {}), changes });
    const expiry = deal && now.state === 'live' ? deal.expiryDate : undefined;
    const ending = expiry !== undefined && url !== undefined && expiry !== row.expiryWarned && daysBetween(today, expiry) <= warnDays;
    if (ending) digest.ending.push({ title, url, expiryDate: expiry, daysLeft: daysBetween(today, expiry) });
    if (changes.length > 0 || ending || !before) digest.told.push({ kind: row.kind, recordId: row.recordId, snapshot: now, ...(ending ? { expiryWarned: expiry } : {}) });
  }
  digest.ending.sort((a, b) => a.expiryDate.localeCompare(b.expiryDate));
  return digest;
}
