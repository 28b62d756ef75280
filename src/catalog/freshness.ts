/**
 * How fresh a record is (issue 20, docs/freshness.md): the day its facts were last checked, how
 * long ago that was, and whether it is stale or about to expire. Pure and date-only (UTC days,
 * `YYYY-MM-DD`), shared by `npm run check`, the pages and the admin's "Needs attention" page.
 */

/** The site's freshness rules (site.yaml `freshness`), with their defaults. */
export interface FreshnessRules {
  maxAgeDays: number;
  expiringWithinDays: number;
}

export const DEFAULT_FRESHNESS: FreshnessRules = { maxAgeDays: 180, expiringWithinDays: 14 };

/**
 * The day a record's facts were last checked: `lastVerified`, or, on records from before that
 * field, `lastUpdated` ("last checked or changed"). Undefined: never dated.
 */
export function checkedOn(record: { lastVerified?: string | undefined; lastUpdated?: string | undefined }): string | undefined {
  return record.lastVerified ?? record.lastUpdated;
}

/**
 * Whole days from one day to another (negative when `to` is earlier).
 * @example daysBetween('2026-11-01', '2026-11-24') // 23
 */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * Why a record's check is stale on `today`, or undefined when it is fresh: never dated, or
 * checked more than `maxAgeDays` ago.
 * @example staleness({ lastVerified: '2026-01-02' }, '2026-11-24', 180) // { checkedOn: '2026-01-02', days: 326 }
 */
export function staleness(record: Parameters<typeof checkedOn>[0], today: string, maxAgeDays: number): { checkedOn?: string; days?: number } | undefined {
  const day = checkedOn(record);
  if (day === undefined) return {};
  const days = daysBetween(day, today);
  return days > maxAgeDays ? { checkedOn: day, days } : undefined;
}

/**
 * "today", "yesterday", "N days ago" (or "in N days" for a date ahead, a clock set wrong).
 * @example daysAgo('2026-11-20', '2026-11-24') // '4 days ago'
 */
export function daysAgo(day: string, today: string): string {
  const days = daysBetween(day, today);
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  return days > 0 ? `${days} days ago` : `in ${-days} days`;
}

// --- internal ---

const DAY_MS = 86_400_000;
