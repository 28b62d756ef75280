/**
 * Members' short profiles and alert settings in the service's database (migration 5): what the
 * dashboard matches deals against, and whether the alert digest is mailed. One row per account,
 * removed with it. The same SQL on SQLite and PostgreSQL.
 */
import type { Database } from '../db/database.ts';
import type { MemberProfile } from '../../src/schemas/dashboard.ts';
import { MemberProfileSchema } from '../../src/schemas/dashboard.ts';

interface ProfileRow {
  stage: string | null;
  region: string | null;
  funding_usd: number | string | null;
  builds: string | null;
  alerts: number | string;
}

export class ProfileStore {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** The account's profile; an empty one (alerts off) when it never filled it in. */
  async get(account: string): Promise<MemberProfile> {
    const [row] = await this.db.all<ProfileRow>('SELECT stage, region, funding_usd, builds, alerts FROM member_profiles WHERE account = $1', [account]);
    return row ? profileOf(row) : { alerts: false };
  }

  /** Replace the account's profile. */
  async put(account: string, profile: MemberProfile, now: Date): Promise<void> {
    const values = [account, profile.stage ?? null, profile.region ?? null, profile.fundingUsd ?? null, profile.builds ?? null, profile.alerts ? 1 : 0, now.toISOString()];
    // One statement: two saves at once each land whole, the later one last.
    await this.db.run(
      `INSERT INTO member_profiles (account, stage, region, funding_usd, builds, alerts, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (account) DO UPDATE SET stage = excluded.stage, region = excluded.region, funding_usd = excluded.funding_usd, builds = excluded.builds, alerts = excluded.alerts, updated_at = excluded.updated_at`,
      values,
    );
  }

  /** Turn the account's alerts off (the one-click unsubscribe); false when they were not on. */
  async stopAlerts(account: string, now: Date): Promise<boolean> {
    return (await this.db.run('UPDATE member_profiles SET alerts = 0, updated_at = $1 WHERE account = $2 AND alerts = 1', [now.toISOString(), account])) > 0;
  }

  /**
   * The confirmed accounts whose alerts are on and whose digest no round took since `before`:
   * the longest waiting first (never taken, then the oldest), so a round cut short leaves the
   * most recently told for the next.
   */
  async dueForDigest(before: Date): Promise<string[]> {
    const rows = await this.db.all<{ account: string }>(
      `SELECT p.account FROM member_profiles p JOIN accounts a ON a.email = p.account
       WHERE p.alerts = 1 AND a.email_verified_at IS NOT NULL AND (p.digest_checked_at IS NULL OR p.digest_checked_at < $1)
       ORDER BY p.digest_checked_at IS NOT NULL, p.digest_checked_at, p.account`,
      [before.toISOString()],
    );
    return rows.map((r) => r.account);
  }

  /** Take the account's digest for a round at `now`, unless a round took it since `before` (one statement: of rounds at once, one takes it). */
  async takeForDigest(account: string, now: Date, before: Date): Promise<boolean> {
    const taken = await this.db.run('UPDATE member_profiles SET digest_checked_at = $1 WHERE account = $2 AND alerts = 1 AND (digest_checked_at IS NULL OR digest_checked_at < $3)', [
      now.toISOString(),
      account,
      before.toISOString(),
    ]);
    return taken > 0;
  }

  /** Give a taken digest back (it could not be sent): the next round takes it first. */
  async releaseDigest(account: string): Promise<void> {
    await this.db.run('UPDATE member_profiles SET digest_checked_at = NULL WHERE account = $1', [account]);
  }
}

// --- internal ---

/** A row as the profile: values the schema no longer takes (a region renamed since) are left out, not trusted. */
function profileOf(row: ProfileRow): MemberProfile {
  const candidate = {
    ...(row.stage ? { stage: row.stage } : {}),
    ...(row.region ? { region: row.region } : {}),
    ...(row.funding_usd === null ? {} : { fundingUsd: Number(row.funding_usd) }),
    ...(row.builds ? { builds: row.builds } : {}),
    alerts: Number(row.alerts) === 1,
  };
  const parsed = MemberProfileSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const kept: Record<string, unknown> = { ...candidate };
  for (const issue of parsed.error.issues) delete kept[String(issue.path[0])];
  return MemberProfileSchema.parse(kept);
}
