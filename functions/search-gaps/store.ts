/**
 * Where search-gap counts live: one record per UTC day (how many searches, and per normalised
 * query how many found nothing and how many found little), kept RETAIN_DAYS days. In memory by
 * default (per process, lost on restart); in Redis when REDIS_URL is set, so instances share
 * one list (redis-store.ts).
 */

export type SearchOutcome = 'zero' | 'low' | 'found';

/** One day's counts. Only queries that found nothing or little are kept by text. */
export interface DayGaps {
  day: string;
  searches: number;
  /** Searches that found nothing, and that found little (listed by query below, up to a bound). */
  zeroSearches: number;
  lowSearches: number;
  zero: Map<string, number>;
  low: Map<string, number>;
}

export interface SearchGapStore {
  /** Count one search on `day`; `query` (normalised) is kept only for a zero or low outcome. */
  note(day: string, outcome: SearchOutcome, query: string): Promise<void>;
  /** The records of these days (a day with no searches may be left out). */
  read(days: readonly string[]): Promise<DayGaps[]>;
}

/** Days kept; older days are dropped. */
export const RETAIN_DAYS = 30;
/**
 * Distinct queries listed per day and outcome. Beyond it a new query is counted among the
 * day's searches but not listed, so junk sent in bulk cannot grow memory without bound.
 */
export const MAX_QUERIES_PER_DAY = 5_000;

export class MemorySearchGapStore implements SearchGapStore {
  private readonly days = new Map<string, DayGaps>();

  async note(day: string, outcome: SearchOutcome, query: string): Promise<void> {
    let record = this.days.get(day);
    if (!record) {
      record = { day, searches: 0, zeroSearches: 0, lowSearches: 0, zero: new Map(), low: new Map() };
      this.days.set(day, record);
      this.forgetOldDays(day);
    }
    record.searches++;
    if (outcome === 'found') return;
    record[outcome === 'zero' ? 'zeroSearches' : 'lowSearches']++;
    const counts = record[outcome];
    const known = counts.get(query);
    if (known !== undefined) counts.set(query, known + 1);
    else if (counts.size < MAX_QUERIES_PER_DAY) counts.set(query, 1);
  }

  async read(days: readonly string[]): Promise<DayGaps[]> {
    return days.flatMap((day) => this.days.get(day) ?? []);
  }

  private forgetOldDays(today: string): void {
    const oldest = dayBefore(today, RETAIN_DAYS - 1);
    for (const day of this.days.keys()) if (day < oldest) this.days.delete(day);
  }
}

/**
 * `count` UTC days ending with `today` (YYYY-MM-DD), newest first.
 * @example lastDays('2026-11-23', 2) // ['2026-11-23', '2026-11-22']
 */
export function lastDays(today: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => dayBefore(today, i));
}

function dayBefore(day: string, back: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() - back);
  return at.toISOString().slice(0, 10);
}
