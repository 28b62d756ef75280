/**
 * Members' saved items in the service's database (functions/db/, migration 4): one row per
 * account, kind and record id, with the title and slug as of saving (so a record removed from
 * the catalog can still be named). The same SQL on SQLite and PostgreSQL.
 */
import { LOCKS, type Database, type Queries } from '../db/database.ts';
import type { SavedRecordRef } from '../../src/catalog/saved-items.ts';
import { MAX_SAVED_ITEMS, type SavedKind } from '../../src/schemas/saved.ts';

/** One saved item as stored. */
export type SavedRow = SavedRecordRef;

/** What a save did: `added`, `kept` (it was saved already: idempotent), or `full` (the account keeps `MAX_SAVED_ITEMS`). */
export type SaveOutcome = 'added' | 'kept' | 'full';

export class SavedItemStore {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** The account's saved items, newest first. */
  async list(account: string): Promise<SavedRow[]> {
    const rows = await this.db.all<{ kind: SavedKind; record_id: string; title: string; slug: string; saved_at: string }>(
      'SELECT kind, record_id, title, slug, saved_at FROM saved_items WHERE account = $1 ORDER BY saved_at DESC, kind, record_id',
      [account],
    );
    return rows.map((r) => ({ kind: r.kind, recordId: r.record_id, title: r.title, slug: r.slug, savedAt: r.saved_at }));
  }

  /**
   * Save an item, or keep it saved (its title and slug brought up to date, its time kept).
   * Counted and inserted in one transaction, so parallel saves cannot pass the limit together.
   */
  add(account: string, item: Omit<SavedRow, 'savedAt'>, now: Date): Promise<SaveOutcome> {
    return this.db.transaction(LOCKS.saved, async (tx) => {
      const kept = await tx.run('UPDATE saved_items SET title = $1, slug = $2 WHERE account = $3 AND kind = $4 AND record_id = $5', [item.title, item.slug, account, item.kind, item.recordId]);
      if (kept > 0) return 'kept';
      if ((await countOf(tx, account)) >= MAX_SAVED_ITEMS) return 'full';
      await tx.run('INSERT INTO saved_items (account, kind, record_id, title, slug, saved_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        account,
        item.kind,
        item.recordId,
        item.title,
        item.slug,
        now.toISOString(),
      ]);
      return 'added';
    });
  }

  /** @returns whether the item was saved */
  async remove(account: string, kind: SavedKind, recordId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM saved_items WHERE account = $1 AND kind = $2 AND record_id = $3', [account, kind, recordId])) > 0;
  }

  /** How many items the account has saved. */
  count(account: string): Promise<number> {
    return countOf(this.db, account);
  }
}

// --- internal ---

/** PostgreSQL answers `count(*)` as a bigint in text; SQLite as a number. */
async function countOf(q: Queries, account: string): Promise<number> {
  const [row] = await q.all<{ n: number | string }>('SELECT count(*) AS n FROM saved_items WHERE account = $1', [account]);
  return Number(row?.n ?? 0);
}
