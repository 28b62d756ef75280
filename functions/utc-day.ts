/**
 * A moment's calendar day in UTC, `YYYY-MM-DD`: the form of `lastUpdated`, expiry dates and the
 * day counters, so every write and count agrees on when "today" is.
 * @example utcDay(new Date('2026-11-24T23:30:00Z')) // '2026-11-24'
 */
export function utcDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}
