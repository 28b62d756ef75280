/**
 * The database's schema as numbered migrations, applied once each, in order, when the database
 * is opened: `schema_migrations` records which ran, and one transaction under the schema lock
 * makes instances that start together apply them once. The SQL is read by both engines.
 */
import { LOCKS, type Database } from './database.ts';

/** Applied in order, each one statement after another; never edit one that shipped, add the next. */
export const MIGRATIONS: readonly (readonly string[])[] = [
  // 1: accounts (admins and members). `generation`: sessions carry it and die when it changes.
  [
    `CREATE TABLE accounts (
     email text PRIMARY KEY,
     role text NOT NULL CHECK (role IN ('admin', 'member')),
     password_hash text,
     generation text NOT NULL,
     created_at text NOT NULL
   )`,
  ],
  // 2: members sign up themselves and confirm their e-mail; accounts made before (by an operator) count as confirmed.
  ['ALTER TABLE accounts ADD COLUMN email_verified_at text', 'UPDATE accounts SET email_verified_at = created_at'],
  // 3: one-time steps done (the move of an old users.json), so an instance starting later does not redo them.
  ['CREATE TABLE app_state (key text PRIMARY KEY, value text NOT NULL)'],
  // 4: members' saved deals and startups, by record id (a rename keeps them); title and slug as of saving name a record removed since.
  [
    `CREATE TABLE saved_items (
     account text NOT NULL REFERENCES accounts (email) ON DELETE CASCADE,
     kind text NOT NULL CHECK (kind IN ('deal', 'startup')),
     record_id text NOT NULL,
     title text NOT NULL,
     slug text NOT NULL,
     saved_at text NOT NULL,
     PRIMARY KEY (account, kind, record_id)
   )`,
    'CREATE INDEX saved_items_newest ON saved_items (account, saved_at)',
  ],
  // 5: the dashboard and alerts. A saved item's watched facts as the member last saw them (`seen`) and as the last alert
  // told them (`alerted`), JSON; the expiry date an alert last warned of. The member's short profile and alert setting.
  [
    'ALTER TABLE saved_items ADD COLUMN seen text',
    'ALTER TABLE saved_items ADD COLUMN alerted text',
    'ALTER TABLE saved_items ADD COLUMN expiry_warned text',
    `CREATE TABLE member_profiles (
     account text PRIMARY KEY REFERENCES accounts (email) ON DELETE CASCADE,
     stage text,
     region text,
     funding_usd bigint,
     builds text,
     alerts integer NOT NULL DEFAULT 0,
     updated_at text NOT NULL
   )`,
  ],
  // 6: mailed sign-in links work once: the nonce of each one used, kept until the link would have expired anyway.
  ['CREATE TABLE used_links (nonce text PRIMARY KEY, expires_at text NOT NULL)'],
  // 7: paid plans (docs/billing.md): each member's plan as Stripe's webhook last set it, and the events already processed (replays are not applied twice).
  [
    `CREATE TABLE member_plans (
     account text PRIMARY KEY REFERENCES accounts (email) ON DELETE CASCADE,
     customer_id text,
     subscription_id text,
     status text,
     trial_end text,
     current_period_end text,
     cancel_at text,
     state_event_at text,
     updated_at text NOT NULL
   )`,
    'CREATE INDEX member_plans_customer ON member_plans (customer_id)',
    'CREATE TABLE billing_events (event_id text PRIMARY KEY, type text NOT NULL, received_at text NOT NULL)',
    'CREATE INDEX billing_events_received ON billing_events (received_at)',
  ],
  // 8: deals a member submitted while signed in (issue 18, item 5): the link to the submission in its own store, and what prefills the next form.
  [
    `CREATE TABLE member_submissions (
     account text NOT NULL REFERENCES accounts (email) ON DELETE CASCADE,
     submission_id text NOT NULL,
     company_name text NOT NULL,
     website_url text NOT NULL,
     submitted_at text NOT NULL,
     PRIMARY KEY (account, submission_id)
   )`,
  ],
  // 9: when an alert round last took each member (its digest sent, or nothing to tell): a round takes each member once per
  // interval, one statement per member, so instances running rounds at once never mail one twice and a round cut short is finished by the next.
  ['ALTER TABLE member_profiles ADD COLUMN digest_checked_at text'],
];

/**
 * Bring the schema up to date (idempotent; safe when several instances run it at once).
 * @example await migrate(openDatabase({ file: ':memory:' }))
 */
export async function migrate(db: Database): Promise<void> {
  await db.transaction(LOCKS.schema, async (tx) => {
    await tx.run('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at text NOT NULL)');
    const [row] = await tx.all<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    for (let version = Number(row?.version ?? 0) + 1; version <= MIGRATIONS.length; version += 1) {
      for (const statement of MIGRATIONS[version - 1] ?? []) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [version, new Date().toISOString()]);
    }
  });
}
