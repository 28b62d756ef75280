/**
 * The service's own database (issue 18): accounts now; members' saved items, alerts and plans
 * next. Never content: the catalog stays in git. One small interface over two engines:
 * - SQLite through Node's built-in `node:sqlite` (the embedded default, `DATA_DIR/database.sqlite`,
 *   nothing to set up; its calls are synchronous, and each takes microseconds on tables this size;
 *   the file is open only while used);
 * - PostgreSQL through `pg` when `DATABASE_URL` is set, shared by several instances.
 * Queries are written once, with `$1`, `$2`… placeholders and SQL both engines read.
 */
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import type pg from 'pg';

export type SqlValue = string | number | null;

/** What a query runs against: the database, or one transaction on it. */
export interface Queries {
  /** The rows a query returns. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Run a statement; resolves with how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface Database extends Queries {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Run `work` as one transaction, serialised with every other transaction on this database
   * (across processes too: SQLite's write lock, PostgreSQL's advisory lock `lock`).
   */
  transaction<T>(lock: number, work: (tx: Queries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Advisory lock keys (PostgreSQL): the app's key, then one per purpose. */
export const LOCK_APP = 0x5d3a1;
export const LOCKS = { schema: 10, accounts: 11, saved: 12, billing: 14 } as const;

/**
 * @example openDatabase({ url: process.env.DATABASE_URL }) // PostgreSQL
 * @example openDatabase({ file: '.data/database.sqlite' }) // SQLite; `readOnly` for a bundled copy
 */
export function openDatabase(where: { url: string } | { file: string; readOnly?: boolean }): Database {
  return 'url' in where ? new PostgresDatabase(where.url) : new SqliteDatabase(where.file, where.readOnly ?? false);
}

/**
 * Run `work` on one pooled PostgreSQL connection as one transaction: committed when it resolves,
 * rolled back when it throws.
 */
export async function pgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A PostgreSQL pool made at its first use: `pg` is loaded then, not at start-up, where it took
 * about 45 ms of every start, DATABASE_URL or not (docs/performance.md). The pool connects at
 * its first query either way.
 */
export class LazyPool {
  readonly #config: pg.PoolConfig;
  readonly #onError: (error: Error) => void;
  #pool: Promise<pg.Pool> | undefined;

  /** @param onError told about a connection the pool lost while idle (without a listener it would end the process; the pool replaces it) */
  constructor(config: pg.PoolConfig, onError: (error: Error) => void) {
    this.#config = config;
    this.#onError = onError;
  }

  get(): Promise<pg.Pool> {
    return (this.#pool ??= import('pg').then(({ default: { Pool } }) => new Pool(this.#config).on('error', this.#onError)));
  }

  /** Close the pool, if it was ever made. */
  async end(): Promise<void> {
    if (this.#pool) await (await this.#pool).end();
  }
}

// --- internal ---

/**
 * The file is open only while a statement or a transaction uses it (a few tens of microseconds
 * to open): between requests nothing holds it, so a backup can copy it and its file system can
 * be remounted read-only. `:memory:` stays open (closing it would lose it).
 */
class SqliteDatabase implements Database {
  readonly engine = 'sqlite';
  private readonly file: string;
  private readonly readOnly: boolean;
  private readonly kept: DatabaseSync | undefined;
  /** Transactions of this process, one after another. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(file: string, readOnly: boolean) {
    this.file = file;
    this.readOnly = readOnly;
    this.kept = file === ':memory:' ? this.open() : undefined;
    // Made (or checked) now: a file that cannot be opened fails here, not at the first request.
    if (!this.kept) this.open().close();
  }

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.using((db) => queries(db).all<T>(sql, params));
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.using((db) => queries(db).run(sql, params));
  }

  transaction<T>(_lock: number, work: (tx: Queries) => Promise<T>): Promise<T> {
    const next = this.queue.then(() =>
      this.using(async (db) => {
        // IMMEDIATE: the write lock is taken now, so two processes never both read then write.
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(queries(db));
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      }),
    );
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): Promise<void> {
    this.kept?.close();
    return Promise.resolve();
  }

  /** Run `work` on a connection: the kept one, or one opened for it and closed after. */
  private async using<T>(work: (db: DatabaseSync) => T | Promise<T>): Promise<T> {
    if (this.kept) return work(this.kept);
    const db = this.open();
    try {
      return await work(db);
    } finally {
      db.close();
    }
  }

  private open(): DatabaseSync {
    const db = new DatabaseSync(this.file, { readOnly: this.readOnly, timeout: 5000 });
    // The default rollback journal, not WAL: the file alone is the whole database, so it can be copied or bundled read-only.
    if (!this.readOnly) db.exec('PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
    return db;
  }
}

/** Statements on one SQLite connection. */
function queries(db: DatabaseSync): Queries {
  return {
    all: <T>(sql: string, params: readonly SqlValue[] = []) => Promise.resolve(db.prepare(sqlite(sql)).all(...(params as SQLInputValue[])) as T[]),
    run: (sql: string, params: readonly SqlValue[] = []) => Promise.resolve(Number(db.prepare(sqlite(sql)).run(...(params as SQLInputValue[])).changes)),
  };
}

/** `$1` → `?1`: SQLite numbers its parameters that way. */
function sqlite(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}

class PostgresDatabase implements Database {
  readonly engine = 'postgres';
  private readonly pool: LazyPool;

  constructor(url: string) {
    this.pool = new LazyPool({ connectionString: url, max: 3, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 }, () => undefined);
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await (await this.pool.get()).query(sql, params as SqlValue[])).rows as T[];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await (await this.pool.get()).query(sql, params as SqlValue[])).rowCount ?? 0;
  }

  async transaction<T>(lock: number, work: (tx: Queries) => Promise<T>): Promise<T> {
    return pgTransaction(await this.pool.get(), async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_APP, lock]);
      return work({
        all: async <R>(sql: string, params: readonly SqlValue[] = []) => (await client.query(sql, params as SqlValue[])).rows as R[],
        run: async (sql: string, params: readonly SqlValue[] = []) => (await client.query(sql, params as SqlValue[])).rowCount ?? 0,
      });
    });
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
