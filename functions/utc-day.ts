/**
 * A moment's calendar day in UTC, `YYYY-MM-DD`: the form of `lastUpdated`, expiry dates and the
 * day counters, so every write and count agrees on when "today" is.
 * @example utcDay(new Date('2026-11-24T23:30:00Z')) // '2026-11-24'
 */
export function utcDay(moment: Date): string {
  const time = moment.getTime();
  if (time >= lastDay.from && time < lastDay.from + DAY_MS) return lastDay.day;
  const day = moment.toISOString().slice(0, 10);
  lastDay = { from: time - (((time % DAY_MS) + DAY_MS) % DAY_MS), day };
  return day;
}

const DAY_MS = 86_400_000;
/** The day asked for last (every counted search asks: the ISO string was 3 % of a cached answer's CPU). */
let lastDay = { from: Number.NaN, day: '' };
