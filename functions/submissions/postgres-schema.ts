/**
 * The PostgreSQL schema of the submission store, as numbered migrations applied once each,
 * in order, on first use. `submission_schema_migrations` records which ran; an advisory lock
 * makes instances that start together apply them once.
 */
import type pg from 'pg';

/** Applied in order; never edit one that shipped, add the next. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE submissions (
     id text PRIMARY KEY,
     status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
     submitted_at timestamptz NOT NULL,
     reviewed_at timestamptz,
     duplicate_key text NOT NULL,
     record jsonb NOT NULL
   );
   CREATE INDEX submissions_by_status ON submissions (status, submitted_at DESC, id DESC);
   CREATE INDEX submissions_by_duplicate_key ON submissions (duplicate_key, submitted_at DESC);`,
];

/** Advisory lock keys of this application (two 32-bit halves: the app, then the purpose). */
export const LOCKS: Record<'schema' | 'admission', [number, number]> = { schema: [0x5d3a1, 1], admission: [0x5d3a1, 2] };

/**
 * Bring the schema up to date (idempotent; safe when several instances run it at once).
 * @example await migrate(pool)
 */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', LOCKS.schema);
    await client.query('CREATE TABLE IF NOT EXISTS submission_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM submission_schema_migrations');
    for (let version = (rows[0]?.version ?? 0) + 1; version <= MIGRATIONS.length; version += 1) {
      await client.query(MIGRATIONS[version - 1] as string);
      await client.query('INSERT INTO submission_schema_migrations (version) VALUES ($1)', [version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
