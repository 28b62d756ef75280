/**
 * Nobody forgets a table of member data: every table the migrations make (the accounts'
 * database, and the submission store's PostgreSQL schema) that has an `account` column or a
 * reference to `accounts` must be named by a section of functions/members/member-data.ts, so
 * the export includes it and a deletion removes it. And the sections and their shapes and words
 * (src/schemas/member-data.ts `MEMBER_DATA`) list the same keys, in the same order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MIGRATIONS } from '../../functions/db/migrations.ts';
import { MEMBER_DATA_SECTIONS } from '../../functions/members/member-data.ts';
import { MEMBER_DATA } from '../../src/schemas/member-data.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The tables that hold something about an account in some SQL: named `accounts`, or with an
 * `account` column, or a column that references `accounts` (made with the table or added later).
 */
function memberTables(sql: string): string[] {
  const found = new Set<string>();
  for (const match of sql.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?\s*\(/gi)) {
    const table = (match[1] as string).toLowerCase();
    const columns = topLevelParts(sql, (match.index ?? 0) + match[0].length);
    if (table === 'accounts' || columns.some(holdsAccount)) found.add(table);
  }
  for (const match of sql.matchAll(/ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?"?(\w+)"?\s+ADD\s+(?:COLUMN\s+)?(?:IF\s+NOT\s+EXISTS\s+)?([^;`'"]+)/gi)) {
    if (holdsAccount(match[2] as string)) found.add((match[1] as string).toLowerCase());
  }
  return [...found].sort();
}

/** A column (or table constraint) of the account: named `account`, or referring to `accounts`. */
const holdsAccount = (definition: string): boolean => /^\s*"?account"?\s/i.test(definition) || /\bREFERENCES\s+"?accounts"?\b/i.test(definition);

/** The comma-separated parts of the parenthesis opened just before `from`, up to its close. */
function topLevelParts(sql: string, from: number): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < sql.length; i++) {
    const c = sql[i];
    if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return [...parts, sql.slice(start, i)];
    else if (c === ',' && depth === 0) {
      parts.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  return parts;
}

const sectionTables = MEMBER_DATA_SECTIONS.flatMap((s) => s.tables);

describe('every table of member data has its section', () => {
  test('the finder sees the ways a table can hold member data', () => {
    expect(
      memberTables(`
        CREATE TABLE accounts (email text PRIMARY KEY);
        CREATE TABLE IF NOT EXISTS alerts (account text NOT NULL, kind text, PRIMARY KEY (account, kind));
        CREATE TABLE plans (member text REFERENCES accounts (email) ON DELETE CASCADE, plan text);
        CREATE TABLE tokens (hash text PRIMARY KEY, owner text, FOREIGN KEY (owner) REFERENCES accounts (email));
        CREATE TABLE app_state (key text PRIMARY KEY, value text NOT NULL, accounted integer);
        ALTER TABLE submissions ADD COLUMN account text;
        ALTER TABLE notes ADD COLUMN author text REFERENCES accounts (email);
        ALTER TABLE other ADD COLUMN accounting text;
      `),
    ).toEqual(['accounts', 'alerts', 'notes', 'plans', 'submissions', 'tokens']);
  });

  test("the accounts' database: every table of the migrations that holds member data is listed in functions/members/member-data.ts", () => {
    const tables = memberTables(MIGRATIONS.flat().join(';\n'));
    expect(tables).toContain('accounts');
    expect(tables).toContain('saved_items');
    const missing = tables.filter((t) => !sectionTables.includes(t));
    expect(missing, `add a section for ${missing.join(', ')} to MEMBER_DATA_SECTIONS (functions/members/member-data.ts)`).toEqual([]);
  });

  test("the submission store's PostgreSQL schema: a table linked to accounts is listed too", () => {
    const sql = readFileSync(join(ROOT, 'functions', 'submissions', 'postgres-schema.ts'), 'utf8');
    const missing = memberTables(sql).filter((t) => !sectionTables.includes(t));
    expect(missing, `add a section for ${missing.join(', ')} to MEMBER_DATA_SECTIONS (functions/members/member-data.ts)`).toEqual([]);
  });

  test('every table a section names is a table some migration makes (no stale names)', () => {
    const made = [
      ...MIGRATIONS.flat()
        .join(';\n')
        .matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?/gi),
    ].map((m) => (m[1] as string).toLowerCase());
    for (const table of sectionTables) expect(made, table).toContain(table);
  });
});

describe('sections and their shapes', () => {
  test('the same keys in the same order in functions/members/member-data.ts and src/schemas/member-data.ts', () => {
    expect(MEMBER_DATA_SECTIONS.map((s) => s.key)).toEqual(Object.keys(MEMBER_DATA));
  });

  test('a section without `remove` has only tables the account row cascades to (ON DELETE CASCADE); the account row and files have their own', () => {
    const sql = MIGRATIONS.flat().join(';\n');
    expect(MEMBER_DATA_SECTIONS.find((s) => s.key === 'account')?.remove).toBeTypeOf('function');
    // A section of files cannot be reached by the database's cascade.
    for (const section of MEMBER_DATA_SECTIONS.filter((s) => s.store === 'files')) expect(section.remove, section.key).toBeTypeOf('function');
    for (const section of MEMBER_DATA_SECTIONS.filter((s) => !s.remove)) {
      expect(section.tables.length, section.key).toBeGreaterThan(0);
      for (const table of section.tables) {
        const at = new RegExp(`CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?"?${table}"?\\s*\\(`, 'i').exec(sql);
        expect(at, `${section.key}: no migration makes ${table}`).not.toBeNull();
        const columns = topLevelParts(sql, (at?.index ?? 0) + (at?.[0].length ?? 0));
        expect(
          columns.some((c) => /\bREFERENCES\s+"?accounts"?\b[^,]*\bON\s+DELETE\s+CASCADE\b/i.test(c)),
          `${section.key}: ${table} is not removed with its account (ON DELETE CASCADE); give the section a \`remove\``,
        ).toBe(true);
      }
    }
  });
});
