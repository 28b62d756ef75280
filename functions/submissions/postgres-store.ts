/**
 * The PostgreSQL engine of the submission store (`DATABASE_URL`): one row per record, the
 * whole record as `jsonb` beside the columns it is found and ordered by. Several instances
 * share it: an admission (duplicate check, cap, insert) is one transaction under an advisory
 * lock, a review changes a row only while it is pending. A resolved write is committed, so
 * durable (PostgreSQL's `synchronous_commit`, on by default).
 */
import type pg from 'pg';
import { LazyPool, pgTransaction } from '../db/database.ts';
import { LOCKS, migrate } from './postgres-schema.ts';
import { duplicateKey, SubmissionStoreUnavailableError, type Admission, type PutOutcome, type StatusFilter, type SubmissionRecord, type SubmissionStore } from './store.ts';

const INSERT = `INSERT INTO submissions (id, status, submitted_at, reviewed_at, duplicate_key, record)
  VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`;

/** The record without its e-mail, stamped with when it went (`$2`); callers add the WHERE with `$1`. */
const FORGET_EMAIL = `UPDATE submissions SET record = (record - 'submitter_email') || jsonb_build_object('emailRemovedAt', $2::text)`;

export class PostgresSubmissionStore implements SubmissionStore {
  private readonly pool: LazyPool;
  private ready: Promise<void> | undefined;

  /**
   * @param url `postgres://user:password@host:5432/database` (a connection string)
   * @param warn told about a connection the pool lost while idle (the pool replaces it)
   */
  constructor(url: string, warn: (problem: string) => void = () => undefined) {
    this.pool = new LazyPool({ connectionString: url, max: 5, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 }, (error) => warn(error.message));
  }

  put(record: SubmissionRecord, admission?: Admission): Promise<PutOutcome> {
    return this.transaction(async (client) => {
      const key = duplicateKey(record);
      if (admission) {
        // One admission at a time across every instance: the check and the insert are one step.
        await client.query('SELECT pg_advisory_xact_lock($1, $2)', LOCKS.admission);
        const earlier = await client.query<{ id: string }>('SELECT id FROM submissions WHERE duplicate_key = $1 AND submitted_at > $2 ORDER BY submitted_at DESC LIMIT 1', [
          key,
          admission.duplicateSince.toISOString(),
        ]);
        if (earlier.rows[0]) return { outcome: 'duplicate', id: earlier.rows[0].id };
        if ((await pendingCount(client)) >= admission.maxPending) return { outcome: 'full' };
      }
      const inserted = await client.query(INSERT, [record.id, record.status, record.submittedAt, record.reviewedAt ?? null, key, record]);
      return inserted.rowCount === 1 ? { outcome: 'stored' } : { outcome: 'exists' };
    });
  }

  async get(id: string): Promise<SubmissionRecord | undefined> {
    const { rows } = await this.query<{ record: SubmissionRecord }>('SELECT record FROM submissions WHERE id = $1', [id]);
    return rows[0]?.record;
  }

  async list(status: StatusFilter, page: { limit: number; offset: number }): Promise<{ records: SubmissionRecord[]; total: number }> {
    const where = status === 'all' ? '' : 'WHERE status = $1';
    const params = status === 'all' ? [] : [status];
    const [{ rows }, counted] = await Promise.all([
      this.query<{ record: SubmissionRecord }>(`SELECT record FROM submissions ${where} ORDER BY submitted_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
        ...params,
        page.limit,
        page.offset,
      ]),
      this.query<{ total: number }>(`SELECT count(*)::int AS total FROM submissions ${where}`, params),
    ]);
    return { records: rows.map((r) => r.record), total: counted.rows[0]?.total ?? 0 };
  }

  async update(reviewed: SubmissionRecord): Promise<boolean> {
    const { rowCount } = await this.query("UPDATE submissions SET status = $2, reviewed_at = $3, record = $4 WHERE id = $1 AND status = 'pending'", [
      reviewed.id,
      reviewed.status,
      reviewed.reviewedAt ?? null,
      reviewed,
    ]);
    return rowCount === 1;
  }

  async forgetEmails(reviewedBefore: Date, now: Date): Promise<number> {
    const { rowCount } = await this.query(`${FORGET_EMAIL} WHERE status <> 'pending' AND reviewed_at < $1 AND record ? 'submitter_email'`, [reviewedBefore.toISOString(), now.toISOString()]);
    return rowCount ?? 0;
  }

  async forgetEmail(id: string, now: Date): Promise<boolean> {
    const { rowCount } = await this.query(`${FORGET_EMAIL} WHERE id = $1 AND record ? 'submitter_email'`, [id, now.toISOString()]);
    return rowCount === 1;
  }

  countPending(): Promise<number> {
    return this.ensure(pendingCount);
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  // --- internal ---

  private query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    return this.ensure((pool) => pool.query<R>(text, params));
  }

  private transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.ensure((pool) => pgTransaction(pool, work));
  }

  /** Run `work` once the schema is up to date; a database that cannot be reached is unavailability, not a bug. */
  private async ensure<T>(work: (pool: pg.Pool) => Promise<T>): Promise<T> {
    try {
      const pool = await this.pool.get();
      this.ready ??= migrate(pool).catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
      await this.ready;
      return await work(pool);
    } catch (error) {
      if (isQueryBug(error)) throw error;
      throw new SubmissionStoreUnavailableError('the submission database cannot be reached', { cause: error });
    }
  }
}

// --- internal ---

async function pendingCount(db: pg.Pool | pg.PoolClient): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM submissions WHERE status = 'pending'");
  return rows[0]?.n ?? 0;
}

/** SQLSTATE classes of mistakes in this code (syntax, data, constraints), which must stay visible as 500s. */
function isQueryBug(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^(42|22|23)/.test(code);
}
