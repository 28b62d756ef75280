/**
 * The hourly jobs on Netlify, as a scheduled function (its entry, with `config.schedule`, is
 * netlify/functions/hourly.ts): what the Node server's own timers do (functions/ops/hourly.ts),
 * since a function runs no timers between requests. The alert digests when a round is due (the
 * claim in the shared database decides, so an extra run sends nothing twice) and the sweep of
 * sign-ups never confirmed. Both need DATABASE_URL; without it they fail, logged, every hour.
 */
import { sweepSignUps } from '../auth/sign-up-sweep.ts';
import { runAlertRound } from '../members/alerts.ts';
import { loadInstance } from './netlify.ts';

/** What one scheduled run did, also its answer (Netlify ignores it; a test or an operator reads it). */
export interface HourlyRun {
  alerts: { ran: boolean; mailed: number; failed: number } | 'off' | 'failed';
  staleSignUpsRemoved: number | 'failed';
}

export default async function hourly(): Promise<Response> {
  const { deps } = await loadInstance();
  const failed = (job: string) => (error: unknown) => {
    deps.log.warn(`${job}_failed`, { error: String(error) });
    return 'failed' as const;
  };
  const [alerts, staleSignUpsRemoved] = await Promise.all([
    deps.config.alertDigestHours === 0 ? ('off' as const) : runAlertRound(deps).then(({ ran, mailed, failed }) => ({ ran, mailed, failed }), failed('alert_round')),
    sweepSignUps(deps).catch(failed('signup_sweep')),
  ]);
  const run: HourlyRun = { alerts, staleSignUpsRemoved };
  return Response.json(run, { status: alerts === 'failed' || staleSignUpsRemoved === 'failed' ? 500 : 200 });
}
