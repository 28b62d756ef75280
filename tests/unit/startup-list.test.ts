/** The admin startup list's view (src/admin/startup-list.ts): read from and written to the query, filtered, sorted, paged. */
import { describe, expect, test } from 'vitest';
import { PAGE_SIZE } from '../../src/admin/deal-list.ts';
import { readStartupView, showStartups, startupViewQuery, type ListedStartup } from '../../src/admin/startup-list.ts';
import { valueText } from '../../src/admin/history-panel.ts';

const startup = (name: string, lastUpdated: string, extra: Partial<ListedStartup> = {}): ListedStartup => ({
  id: `s-${name}`,
  slug: name.toLowerCase(),
  name,
  category: 'saas',
  lastUpdated,
  ...extra,
});
const ALL = [startup('Beta', '2026-01-02'), startup('alpha', '2026-03-01', { summary: 'Harbour analytics' }), startup('Gamma', '2026-02-01', { draft: true })];

describe('startup list view', () => {
  test('the query round-trips; wrong values are the defaults', () => {
    const view = readStartupView(new URLSearchParams('q=x&draft=yes&sort=name&dir=desc&page=2'));
    expect(view).toEqual({ q: 'x', draft: 'yes', sort: 'name', dir: 'desc', page: 2 });
    expect(startupViewQuery(view)).toBe('?q=x&draft=yes&sort=name&dir=desc&page=2');
    expect(readStartupView(new URLSearchParams('draft=maybe&sort=price&page=-1'))).toEqual({ q: '', draft: '', sort: '', dir: 'asc', page: 1 });
    expect(startupViewQuery(readStartupView(new URLSearchParams()))).toBe('');
  });

  test('drafts first then the newest by default; by name; search and draft filter', () => {
    const names = (query: string) => showStartups(ALL, readStartupView(new URLSearchParams(query))).rows.map((s) => s.name);
    expect(names('')).toEqual(['Gamma', 'alpha', 'Beta']);
    expect(names('sort=name')).toEqual(['alpha', 'Beta', 'Gamma']);
    expect(names('sort=updated&dir=desc')).toEqual(['alpha', 'Gamma', 'Beta']);
    expect(names('q=harbour')).toEqual(['alpha']);
    expect(names('draft=no&sort=name')).toEqual(['alpha', 'Beta']);
  });

  test('pages of PAGE_SIZE; past the end is the last page', () => {
    const many = Array.from({ length: PAGE_SIZE + 3 }, (_, i) => startup(`S${i}`, '2026-01-01'));
    expect(showStartups(many, readStartupView(new URLSearchParams('page=9')))).toMatchObject({ total: PAGE_SIZE + 3, page: 2, pages: 2 });
  });
});

describe('history values', () => {
  test('absent, lists, flags and numbers in words', () => {
    expect(valueText(undefined)).toBe('(none)');
    expect(valueText(['a', 'b'])).toBe('a, b');
    expect(valueText(true)).toBe('yes');
    expect(valueText(250000)).toBe('250000');
  });
});
