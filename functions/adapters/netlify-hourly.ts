/**
 * The hourly jobs on Netlify, as a scheduled function (its entry, with `config.schedule`, is
 * netlify/functions/hourly.ts): what the Node server's own timers do (functions/ops/hourly.ts),
 * since a function runs no timers between requests. The alert digests now due (each member taken
 * once per interval in the shared database, so an extra run sends nothing twice) and the sweep
 * of sign-ups never confirmed. Both need DATABASE_URL, the digests SMTP_URL too. The instance
 * reads the bundled catalog (no clone of the content repository: the build hook keeps the
 * deploy current) and stops taking members at `ROUND_SECONDS`, within Netlify's 30 s limit for
 * a scheduled function; the members left are taken first by the next hourly run.
 */
import { sweepSignUps } from '../auth/sign-up-sweep.ts';
import { runAlertRound } from '../members/alerts.ts';
import { oncePerInstance, openFunctionDeps } from './netlify.ts';

/** How long the digests of one run may take, of the platform's 30 s (the start and the sweep come out of it too). */
const ROUND_SECONDS = 20;

/** What one scheduled run did, also its answer (Netlify ignores it; a test or an operator reads it). */
export interface HourlyRun {
  alerts: { ran: boolean; mailed: number; failed: number; left: number } | 'off' | 'no mail server' | 'failed';
  staleSignUpsRemoved: number | 'failed';
}

const open = oncePerInstance(async () => (await openFunctionDeps({ clone: false })).deps);

export default async function hourly(): Promise<Response> {
  const deadline = Date.now() + ROUND_SECONDS * 1000;
  const deps = await open();
  const jobFailed = (job: string) => (error: unknown) => {
    deps.log.warn(`${job}_failed`, { error: String(error) });
    return 'failed' as const;
  };
  const digests = async (): Promise<HourlyRun['alerts']> => {
    if (deps.config.alertDigestHours === 0) return 'off';
    // Taking members whose digest cannot go anywhere would only push their digest back.
    if (!deps.auth.mail.deliverable) return 'no mail server';
    const { ran, mailed, failed, left } = await runAlertRound(deps, { deadline });
    return { ran, mailed, failed, left };
  };
  const [alerts, staleSignUpsRemoved] = await Promise.all([digests().catch(jobFailed('alert_round')), sweepSignUps(deps).catch(jobFailed('signup_sweep'))]);
  const run: HourlyRun = { alerts, staleSignUpsRemoved };
  const ok = alerts !== 'failed' && staleSignUpsRemoved !== 'failed' && (typeof alerts === 'string' || alerts.failed === 0);
  return Response.json(run, { status: ok ? 200 : 500 });
}
