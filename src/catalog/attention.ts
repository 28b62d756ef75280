/**
 * The admin's "Needs attention" queues (issue 20, docs/freshness.md): deals whose expiry date
 * has passed while they still say they are open, deals about to expire, records not checked
 * within the site's age, and links the last `npm run verify-links` found broken. Pure: the
 * catalog, today, the site's rules and the link report in; rows out, each naming its record
 * so the page can act on it (mark expired, mark verified today, open to edit).
 */
import type { Deal } from '../schemas/deal.ts';
import type { Startup } from '../schemas/startup.ts';
import { checkedOn, daysBetween, staleness, type FreshnessRules } from './freshness.ts';

export type RecordKind = 'deal' | 'startup';

/** What the page needs of a link report's finding (the report itself: docs/freshness.md). */
export interface LinkFinding {
  url: string;
  verdict: string;
  detail: string;
  status?: number | undefined;
  finalUrl?: string | undefined;
  uses: readonly { kind: RecordKind; slug: string; field: string }[];
}

/** One record in one queue. */
export interface AttentionRow {
  kind: RecordKind;
  id: string;
  slug: string;
  title: string;
  /** Where to check the facts: the source, else the application page (deal) or the listing (startup). */
  checkUrl?: string;
  /** The day it was last checked, when it was ever dated. */
  checkedOn?: string;
  /** `expired`, `expiring`: the expiry date; `stale`: days since the check (absent: never dated). */
  expiryDate?: string;
  days?: number;
  /** `links`: the finding for this record's field. */
  link?: { field: string; url: string; verdict: string; detail: string; status?: number; finalUrl?: string };
  verified?: boolean;
}

export interface Attention {
  /** Open by their status, but past their expiry date: mark them expired (or move the date). */
  expired: AttentionRow[];
  /** Expiring within `expiringWithinDays`: renew the date or plan the ending. */
  expiring: AttentionRow[];
  /** Verified deals and listings for sale last checked longer ago than `maxAgeDays`, or never dated. */
  stale: AttentionRow[];
  /** Non-`ok` links of the last link check whose record still has that link. */
  links: AttentionRow[];
}

/**
 * @example needsAttention({ deals, startups }, '2026-11-24', { maxAgeDays: 180, expiringWithinDays: 14 }, report?.links)
 */
export function needsAttention(records: { deals: readonly Deal[]; startups: readonly Startup[] }, today: string, rules: FreshnessRules, findings: readonly LinkFinding[] = []): Attention {
  const open = records.deals.filter((d) => d.status !== 'expired');
  const dated = (d: Deal) => d.expiryDate !== undefined;
  const expired = open.filter((d) => dated(d) && (d.expiryDate as string) < today);
  const expiring = open.filter((d) => dated(d) && (d.expiryDate as string) >= today && daysBetween(today, d.expiryDate as string) <= rules.expiringWithinDays);
  const byExpiry = (a: AttentionRow, b: AttentionRow) => (a.expiryDate ?? '').localeCompare(b.expiryDate ?? '');
  const stale = [
    ...open.filter((d) => d.verified).map((d) => [row('deal', d), staleness(d, today, rules.maxAgeDays)] as const),
    ...records.startups.filter((s) => s.forSale).map((s) => [row('startup', s), staleness(s, today, rules.maxAgeDays)] as const),
  ].flatMap(([r, why]) => (why ? [{ ...r, ...why }] : []));
  return {
    expired: expired.map((d) => ({ ...row('deal', d), expiryDate: d.expiryDate as string, days: daysBetween(d.expiryDate as string, today) })).sort(byExpiry),
    expiring: expiring.map((d) => ({ ...row('deal', d), expiryDate: d.expiryDate as string, days: daysBetween(today, d.expiryDate as string) })).sort(byExpiry),
    // Never dated first, then the longest unchecked.
    stale: stale.sort((a, b) => (b.days ?? Infinity) - (a.days ?? Infinity)),
    links: linkRows(records, findings),
  };
}

// --- internal ---

function row(kind: RecordKind, record: Deal | Startup): AttentionRow {
  const day = checkedOn(record);
  const checkUrl = record.sourceUrl ?? ('applicationUrl' in record ? record.applicationUrl : (record.listingUrl ?? record.website));
  return {
    kind,
    id: record.id,
    slug: record.slug,
    title: 'title' in record ? record.title : record.name,
    ...(checkUrl ? { checkUrl } : {}),
    ...(day ? { checkedOn: day } : {}),
    ...('verified' in record ? { verified: record.verified } : {}),
  };
}

/** A finding per record field that still holds the link checked (a link edited since is news the next check brings). */
function linkRows(records: { deals: readonly Deal[]; startups: readonly Startup[] }, findings: readonly LinkFinding[]): AttentionRow[] {
  const bySlug = { deal: new Map(records.deals.map((d) => [d.slug, d as Deal | Startup])), startup: new Map(records.startups.map((s) => [s.slug, s as Deal | Startup])) };
  return findings
    .filter((f) => f.verdict !== 'ok')
    .flatMap((finding) =>
      finding.uses.flatMap((use) => {
        const record = bySlug[use.kind]?.get(use.slug);
        if (!record || (record as Record<string, unknown>)[use.field] !== finding.url) return [];
        const { url, verdict, detail, status, finalUrl } = finding;
        return [{ ...row(use.kind, record), link: { field: use.field, url, verdict, detail, ...(status !== undefined ? { status } : {}), ...(finalUrl ? { finalUrl } : {}) } }];
      }),
    );
}
