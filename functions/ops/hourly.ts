/**
 * A job the server runs by itself every hour (alert digests, the sign-up sweep): first a minute
 * after start, so a restart does not wait an hour, then hourly, on timers that never keep the
 * process alive. A failing run is logged by the job and tried again at the next tick.
 */
const FIRST_MS = 60_000;
const EVERY_MS = 3600_000;

/** Run `tick` a minute from now and then every hour; returns what stops it. */
export function everyHour(tick: () => void): () => void {
  const first = setTimeout(tick, FIRST_MS).unref();
  const every = setInterval(tick, EVERY_MS).unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
