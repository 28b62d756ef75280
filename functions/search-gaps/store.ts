/**
 * Where search-gap counts live: one record per UTC day (how many searches, and per normalised
 * query how many found nothing and how many found little), kept RETAIN_DAYS days. In memory by
 * default (per process, lost on restart); in Redis when REDIS_URL is set, so instances share
 * one list (redis-store.ts).
 */
import { utcDay } from '../utc-day.ts';

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
  /** Add a batch of one day's counts (search-gaps.ts gathers them and hands them over now and then). */
  add(batch: DayGaps): Promise<void>;
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

  async add(batch: DayGaps): Promise<void> {
    let record = this.days.get(batch.day);
    if (!record) {
      record = emptyDay(batch.day);
      this.days.set(batch.day, record);
      this.forgetOldDays(batch.day);
    }
    record.searches += batch.searches;
    record.zeroSearches += batch.zeroSearches;
    record.lowSearches += batch.lowSearches;
    for (const outcome of ['zero', 'low'] as const) for (const [query, count] of batch[outcome]) countQuery(record[outcome], query, count);
  }

  async read(days: readonly string[]): Promise<DayGaps[]> {
    return days.flatMap((day) => this.days.get(day) ?? []);
  }

  private forgetOldDays(today: string): void {
    const oldest = dayBefore(today, RETAIN_DAYS - 1);
    for (const day of this.days.keys()) if (day < oldest) this.days.delete(day);
  }
}

/** A day with nothing counted yet. */
export function emptyDay(day: string): DayGaps {
  return { day, searches: 0, zeroSearches: 0, lowSearches: 0, zero: new Map(), low: new Map() };
}

/** Add `count` to a query's count, unless the day's list is full and the query new (MAX_QUERIES_PER_DAY). */
export function countQuery(counts: Map<string, number>, query: string, count = 1): void {
  const known = counts.get(query);
  if (known !== undefined) counts.set(query, known + count);
  else if (counts.size < MAX_QUERIES_PER_DAY) counts.set(query, count);
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
  return utcDay(at);
}
