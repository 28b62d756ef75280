/**
 * Members' saved items in the service's database (functions/db/, migrations 4 and 5): one row
 * per account, kind and record id, with the title and slug as of saving (so a record removed
 * from the catalog can still be named), and the watched facts as the member last saw them and as
 * the last alert told them (src/catalog/saved-changes.ts). The same SQL on SQLite and PostgreSQL.
 */
import { LOCKS, type Database, type Queries } from '../db/database.ts';
import type { SavedRecordRef } from '../../src/catalog/saved-items.ts';
import { MAX_SAVED_ITEMS, type SavedKind } from '../../src/schemas/saved.ts';
import type { Snapshot } from '../../src/schemas/dashboard.ts';

/** One saved item as stored. */
export interface SavedRow extends SavedRecordRef {
  /** The watched facts as the member last marked them seen (JSON; null: saved before they were kept). */
  seen: string | null;
  /** The watched facts as the last alert told them (JSON). */
  alerted: string | null;
  /** The expiry date the last alert warned was coming. */
  expiryWarned: string | null;
}

/** A snapshot to keep for one item. */
export interface ItemSnapshot {
  kind: SavedKind;
  recordId: string;
  snapshot: Snapshot;
}

/** What a save did: `added`, `kept` (it was saved already: idempotent), or `full` (the account keeps `MAX_SAVED_ITEMS`). */
export type SaveOutcome = 'added' | 'kept' | 'full';

export class SavedItemStore {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** The account's saved items, newest first. */
  async list(account: string): Promise<SavedRow[]> {
    const rows = await this.db.all<{ kind: SavedKind; record_id: string; title: string; slug: string; saved_at: string; seen: string | null; alerted: string | null; expiry_warned: string | null }>(
      'SELECT kind, record_id, title, slug, saved_at, seen, alerted, expiry_warned FROM saved_items WHERE account = $1 ORDER BY saved_at DESC, kind, record_id',
      [account],
    );
    return rows.map((r) => ({ kind: r.kind, recordId: r.record_id, title: r.title, slug: r.slug, savedAt: r.saved_at, seen: r.seen, alerted: r.alerted, expiryWarned: r.expiry_warned }));
  }

  /**
   * Save an item, or keep it saved (its title and slug brought up to date, its time kept), with
   * its watched facts now as both what the member has seen and what alerts have told.
   * Counted and inserted in one transaction, so parallel saves cannot pass the limit together.
   */
  add(account: string, item: Omit<SavedRecordRef, 'savedAt'>, snapshot: Snapshot, now: Date): Promise<SaveOutcome> {
    return this.db.transaction(LOCKS.saved, async (tx) => {
      const kept = await tx.run('UPDATE saved_items SET title = $1, slug = $2 WHERE account = $3 AND kind = $4 AND record_id = $5', [item.title, item.slug, account, item.kind, item.recordId]);
      if (kept > 0) return 'kept';
      if ((await countOf(tx, account)) >= MAX_SAVED_ITEMS) return 'full';
      const facts = JSON.stringify(snapshot);
      await tx.run('INSERT INTO saved_items (account, kind, record_id, title, slug, saved_at, seen, alerted) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)', [
        account,
        item.kind,
        item.recordId,
        item.title,
        item.slug,
        now.toISOString(),
        facts,
      ]);
      return 'added';
    });
  }

  /** @returns whether the item was saved */
  async remove(account: string, kind: SavedKind, recordId: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM saved_items WHERE account = $1 AND kind = $2 AND record_id = $3', [account, kind, recordId])) > 0;
  }

  /** Keep the facts the member has now seen, for items still saved. */
  markSeen(account: string, items: readonly ItemSnapshot[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    return this.db.transaction(LOCKS.saved, async (tx) => {
      for (const item of items)
        await tx.run('UPDATE saved_items SET seen = $1 WHERE account = $2 AND kind = $3 AND record_id = $4', [JSON.stringify(item.snapshot), account, item.kind, item.recordId]);
    });
  }

  /** Keep the facts an alert has now told, and the expiry dates it warned of. */
  markAlerted(account: string, items: readonly (ItemSnapshot & { expiryWarned?: string | undefined })[]): Promise<void> {
    return this.db.transaction(LOCKS.saved, async (tx) => {
      for (const item of items) {
        await tx.run('UPDATE saved_items SET alerted = $1, expiry_warned = coalesce($2, expiry_warned) WHERE account = $3 AND kind = $4 AND record_id = $5', [
          JSON.stringify(item.snapshot),
          item.expiryWarned ?? null,
          account,
          item.kind,
          item.recordId,
        ]);
      }
    });
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
