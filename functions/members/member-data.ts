/**
 * Every piece of a member's data, as a list of sections: one per table of the accounts'
 * database, or other store, that holds something about an account. Each section exports the
 * account's rows (GET /api/v1/me/export) and, unless the database's `ON DELETE CASCADE` from
 * `accounts` removes them already, deletes them (POST /api/v1/me/delete, one transaction:
 * member-data-store.ts).
 *
 * EVERY TABLE OR STORE THAT HOLDS MEMBER DATA MUST BE LISTED HERE, or an export leaves it out
 * and a deletion leaves it behind. tests/unit/member-data.test.ts fails when a migration makes a
 * table with an `account` column (or a reference to `accounts`) that no section names. Adding
 * one is an entry below plus its shape and words in src/schemas/member-data.ts (`MEMBER_DATA`).
 */
import type { Queries } from '../db/database.ts';
import { SubmissionLinkStore } from './submission-links.ts';
import { outboxDir, outboxMailsTo, removeOutboxMailsTo } from '../auth/outbox.ts';
import type { MemberDataKey, MemberDataRows } from '../../src/schemas/member-data.ts';

/** What a section reads and removes with. */
export interface SectionContext {
  /** The account's e-mail address, normalised (the `account` column of member tables). */
  email: string;
  /** The accounts' database; in `remove`, the deletion's one transaction. */
  q: Queries;
  /** The data folder, for stores kept as files. */
  dataDir: string;
}

interface SectionOf<K extends MemberDataKey> {
  key: K;
  /** The tables of the accounts' database it covers (none for a store outside it). */
  tables: readonly string[];
  /** The account's rows, in the export's shape. */
  export: (at: SectionContext) => Promise<MemberDataRows[K]>;
  /**
   * Delete the account's rows; left out where `ON DELETE CASCADE` from `accounts` does it.
   * Database sections run inside the deletion's transaction, in the reverse of the list's order
   * (the account row, listed first, goes last); `files` sections after it commits.
   */
  remove?: (at: SectionContext) => Promise<void>;
  /** `files`: kept outside the database, removed once the transaction has committed (a file cannot roll back). */
  store?: 'database' | 'files';
}

export type MemberDataSection = { [K in MemberDataKey]: SectionOf<K> }[MemberDataKey];

export const MEMBER_DATA_SECTIONS: readonly MemberDataSection[] = [
  {
    key: 'account',
    tables: ['accounts'],
    // Never the password hash or the session generation: neither is the member's to take away, and either would help an attacker who got the file.
    export: async ({ q, email }) => {
      const [row] = await q.all<{ email: string; role: 'admin' | 'member'; created_at: string; email_verified_at: string | null; has_password: number | boolean }>(
        'SELECT email, role, created_at, email_verified_at, password_hash IS NOT NULL AS has_password FROM accounts WHERE email = $1',
        [email],
      );
      if (!row) throw new Error('no such account');
      return { email: row.email, role: row.role, createdAt: row.created_at, emailConfirmedAt: row.email_verified_at, hasPassword: Boolean(row.has_password) };
    },
    remove: async ({ q, email }) => {
      await q.run('DELETE FROM accounts WHERE email = $1', [email]);
    },
  },
  {
    key: 'savedItems',
    tables: ['saved_items'],
    // Removed with the account by ON DELETE CASCADE (migration 4).
    export: async ({ q, email }) =>
      (
        await q.all<{ kind: 'deal' | 'startup'; record_id: string; title: string; slug: string; saved_at: string }>(
          'SELECT kind, record_id, title, slug, saved_at FROM saved_items WHERE account = $1 ORDER BY saved_at DESC, kind, record_id',
          [email],
        )
      ).map((r) => ({ kind: r.kind, id: r.record_id, title: r.title, slug: r.slug, savedAt: r.saved_at })),
  },
  {
    key: 'profile',
    tables: ['member_profiles'],
    // Removed with the account by ON DELETE CASCADE (migration 5).
    export: async ({ q, email }) => {
      const [row] = await q.all<{
        stage: string | null;
        region: string | null;
        funding_usd: number | string | null;
        builds: string | null;
        alerts: number | string;
        updated_at: string;
        digest_checked_at: string | null;
      }>('SELECT stage, region, funding_usd, builds, alerts, updated_at, digest_checked_at FROM member_profiles WHERE account = $1', [email]);
      if (!row) return null;
      return {
        stage: row.stage,
        region: row.region,
        fundingUsd: row.funding_usd === null ? null : Number(row.funding_usd),
        builds: row.builds,
        alerts: Number(row.alerts) === 1,
        updatedAt: row.updated_at,
        alertsCheckedAt: row.digest_checked_at,
      };
    },
  },
  {
    key: 'plan',
    tables: ['member_plans'],
    // Removed with the account by ON DELETE CASCADE (migration 7), once the privacy handler has cancelled a live subscription at Stripe (privacy.ts).
    export: async ({ q, email }) => {
      const [row] = await q.all<{ status: string | null; customer_id: string | null; subscription_id: string | null; trial_end: string | null; current_period_end: string | null; updated_at: string }>(
        'SELECT status, customer_id, subscription_id, trial_end, current_period_end, updated_at FROM member_plans WHERE account = $1',
        [email],
      );
      if (!row) return null;
      return { status: row.status, customerId: row.customer_id, subscriptionId: row.subscription_id, trialEnd: row.trial_end, currentPeriodEnd: row.current_period_end, updatedAt: row.updated_at };
    },
  },
  {
    key: 'submissions',
    tables: ['member_submissions'],
    // Removed with the account by ON DELETE CASCADE (migration 8); the privacy handler then takes the address out of the records themselves (privacy.ts).
    export: ({ q, email }) => new SubmissionLinkStore(q).list(email),
  },
  {
    key: 'outbox',
    tables: [],
    store: 'files',
    export: ({ dataDir, email }) => outboxMailsTo(outboxDir(dataDir), email),
    remove: async ({ dataDir, email }) => {
      await removeOutboxMailsTo(outboxDir(dataDir), email);
    },
  },
];
