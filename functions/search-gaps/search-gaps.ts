/**
 * What people could not find (issue 13): every finished search is counted by outcome, and the
 * text of those that found nothing or little is kept, normalised and per day, so editors know
 * which deals to add. Nothing that identifies a person is kept: no address, no session, no
 * time finer than the day, and the text is scrubbed (normalise.ts). Read by the admin page
 * (GET /api/v1/admin/search-gaps) and the metrics endpoint.
 */
import { normaliseQuery } from './normalise.ts';
import { countQuery, emptyDay, lastDays, type DayGaps, type SearchGapStore, type SearchOutcome } from './store.ts';

/** A search with fewer matches than this "found little". */
export const LOW_RESULTS = 3;
/**
 * Counts gather in memory and go to the store at most this often: a search then costs a few map
 * updates, not a store call (which, in Redis, would be a round trip per search).
 */
const FLUSH_MS = 1000;
/** The metric lists this many queries, over this many days. */
const METRIC_TOP = 10;
const METRIC_DAYS = 7;

export interface GapRow {
  query: string;
  /** Searches for it that found nothing, and that found 1 or 2 deals. */
  zero: number;
  low: number;
  /** The last day (UTC) it was searched with such an outcome. */
  lastSeen: string;
}

export interface GapReport {
  /** The period, in UTC days, oldest first. */
  from: string;
  to: string;
  searches: number;
  zero: number;
  low: number;
  /** The most frequent queries that found nothing or little, most frequent first. */
  queries: GapRow[];
}

export class SearchGaps {
  private readonly store: SearchGapStore;
  private readonly today: () => string;
  /** This process's searches by outcome, for the counter metric. */
  private readonly outcomes: Record<SearchOutcome, number> = { zero: 0, low: 0, found: 0 };
  /** Counts not yet handed to the store, by day. */
  private pending = new Map<string, DayGaps>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  /** @param today the current UTC day, YYYY-MM-DD */
  constructor(store: SearchGapStore, today: () => string) {
    this.store = store;
    this.today = today;
  }

  /**
   * Count one finished search that matched `matches` deals. Synchronous and cheap (the text is
   * only normalised when it is kept); the store gets the counts within FLUSH_MS, best effort.
   * @example gaps.note('notion discount', 0)
   */
  note(text: string, matches: number): void {
    const outcome: SearchOutcome = matches === 0 ? 'zero' : matches < LOW_RESULTS ? 'low' : 'found';
    const query = outcome === 'found' ? '' : normaliseQuery(text);
    if (query === undefined) return;
    this.outcomes[outcome]++;
    const day = this.today();
    let batch = this.pending.get(day);
    if (!batch) {
      batch = emptyDay(day);
      this.pending.set(day, batch);
    }
    batch.searches++;
    if (outcome !== 'found') {
      batch[outcome === 'zero' ? 'zeroSearches' : 'lowSearches']++;
      countQuery(batch[outcome], query);
    }
    this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Hand the gathered counts to the store now. */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batches = [...this.pending.values()];
    this.pending = new Map();
    await Promise.all(batches.map((batch) => this.store.add(batch).catch(() => undefined)));
  }

  /** The last `days` days (today included), with at most `limit` queries. */
  async report(days: number, limit: number): Promise<GapReport> {
    await this.flush();
    const period = lastDays(this.today(), days);
    return summarise(await this.store.read(period), period, limit);
  }

  /** Prometheus text: this process's counter by outcome, and the week's top queries (shared when in Redis). */
  async metricsText(): Promise<string> {
    const lines = [
      '# HELP search_queries_total Searches answered by this process, by outcome (zero: nothing found; low: 1 or 2 found).',
      '# TYPE search_queries_total counter',
      ...Object.entries(this.outcomes).map(([outcome, count]) => `search_queries_total{outcome="${outcome}"} ${count}`),
    ];
    const top = await this.report(METRIC_DAYS, METRIC_TOP).catch(() => undefined);
    if (top) {
      lines.push(`# HELP search_gap_queries The ${METRIC_TOP} queries of the last ${METRIC_DAYS} days that most often found nothing or little, by outcome.`, '# TYPE search_gap_queries gauge');
      for (const row of top.queries) {
        for (const outcome of ['zero', 'low'] as const) {
          if (row[outcome] > 0) lines.push(`search_gap_queries{query="${labelValue(row.query)}",outcome="${outcome}"} ${row[outcome]}`);
        }
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

/** Merge days into one report: most frequent first (nothing found and found little together), then most zero, newest, by text. */
export function summarise(records: readonly DayGaps[], period: readonly string[], limit: number): GapReport {
  const report: GapReport = { from: period[period.length - 1] ?? '', to: period[0] ?? '', searches: 0, zero: 0, low: 0, queries: [] };
  const rows = new Map<string, GapRow>();
  for (const record of records) {
    report.searches += record.searches;
    report.zero += record.zeroSearches;
    report.low += record.lowSearches;
    for (const outcome of ['zero', 'low'] as const) {
      for (const [query, count] of record[outcome]) {
        const row = rows.get(query) ?? { query, zero: 0, low: 0, lastSeen: record.day };
        row[outcome] += count;
        if (record.day > row.lastSeen) row.lastSeen = record.day;
        rows.set(query, row);
      }
    }
  }
  report.queries = [...rows.values()].sort((a, b) => b.zero + b.low - (a.zero + a.low) || b.zero - a.zero || b.lastSeen.localeCompare(a.lastSeen) || a.query.localeCompare(b.query)).slice(0, limit);
  return report;
}

/** Prometheus label escaping (backslash, double quote, line feed). */
function labelValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
