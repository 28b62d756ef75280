/**
 * A member's data as a whole, over the sections of member-data.ts: all of it read for the
 * export, all of it removed at once. The database's part of a deletion is one transaction under
 * the accounts' lock, which also checks that the session asking is still the account's and that
 * the site keeps an admin; stores kept as files are removed once it has committed.
 */
import { LOCKS, type Database } from '../db/database.ts';
import type { MemberDataRows } from '../../src/schemas/member-data.ts';
import { MEMBER_DATA_SECTIONS, type MemberDataSection, type SectionContext } from './member-data.ts';

/** What a deletion did: `gone` (no such account, or the session's generation is no longer its own), `only-admin` (refused), or `erased`. */
export type EraseOutcome = { erased: true; filesKept: string[] } | { erased: false; reason: 'gone' | 'only-admin' };

export class MemberDataStore {
  private readonly db: Database;
  private readonly sections: readonly MemberDataSection[];

  /** @param sections the list to work over (member-data.ts; a test may pass its own) */
  constructor(db: Database, sections: readonly MemberDataSection[] = MEMBER_DATA_SECTIONS) {
    this.db = db;
    this.sections = sections;
  }

  /** Every section's rows for the account, by section key. */
  async export(email: string, dataDir: string): Promise<MemberDataRows> {
    const at: SectionContext = { email, q: this.db, dataDir };
    const rows: Partial<Record<string, unknown>> = {};
    for (const section of this.sections) rows[section.key] = await section.export(at);
    return rows as MemberDataRows;
  }

  /**
   * Delete the account and everything about it. `rules.gen`: only while the account still has
   * that session generation (the session asking; a password reset elsewhere meanwhile ended
   * it); `rules.keepAnAdmin`: never the last admin. A store of files that could not be cleared
   * is named in `filesKept`; the account is gone all the same.
   * @example await data.erase('mel@example.com', dataDir, { gen: session.gen, keepAnAdmin: true })
   */
  async erase(email: string, dataDir: string, rules: { gen?: string; keepAnAdmin?: boolean } = {}): Promise<EraseOutcome> {
    const refused = await this.db.transaction(LOCKS.accounts, async (tx) => {
      const [row] = await tx.all<{ role: string; generation: string }>('SELECT role, generation FROM accounts WHERE email = $1', [email]);
      if (!row || (rules.gen !== undefined && row.generation !== rules.gen)) return 'gone' as const;
      if (rules.keepAnAdmin && row.role === 'admin') {
        const [admins] = await tx.all<{ n: number | string }>("SELECT count(*) AS n FROM accounts WHERE role = 'admin'");
        if (Number(admins?.n ?? 0) <= 1) return 'only-admin' as const;
      }
      for (const section of [...this.sections].reverse()) if (section.store !== 'files') await section.remove?.({ email, q: tx, dataDir });
      return undefined;
    });
    if (refused) return { erased: false, reason: refused };
    const filesKept: string[] = [];
    for (const section of this.sections.filter((s) => s.store === 'files')) {
      await section.remove?.({ email, q: this.db, dataDir }).catch(() => filesKept.push(section.key));
    }
    return { erased: true, filesKept };
  }

  /** Whether the account is the only admin (the privacy page says deleting it is refused). */
  async onlyAdmin(email: string): Promise<boolean> {
    const admins = await this.db.all<{ email: string }>("SELECT email FROM accounts WHERE role = 'admin' LIMIT 2");
    return admins.length === 1 && admins[0]?.email === email;
  }
}
