/**
 * Sign-ups never confirmed are removed once their 48 hours are over (account-store.ts
 * `UNCONFIRMED_TTL_MS`): a minute after the server starts, then every hour, on each instance
 * (the removal is one idempotent statement; instances sharing PostgreSQL need no claim). A sign-up
 * for the same address also clears them on its way.
 */
import type { Deps } from '../deps.ts';
import { everyHour } from '../ops/hourly.ts';

export type SignUpSweepDeps = Pick<Deps, 'auth' | 'clock' | 'log'>;

/** Remove the stale sign-ups now; resolves with how many (logged when some were). */
export async function sweepSignUps(deps: SignUpSweepDeps): Promise<number> {
  const removed = await deps.auth.accounts.removeStaleSignUps(deps.clock());
  if (removed > 0) deps.log.info('stale_signups_removed', { count: removed });
  return removed;
}

/** Sweep a minute from now and then hourly; returns what stops it. */
export function startSignUpSweep(deps: SignUpSweepDeps): () => void {
  return everyHour(() => void sweepSignUps(deps).catch((error: unknown) => deps.log.warn('signup_sweep_failed', { error: String(error) })));
}
