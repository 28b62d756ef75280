/** The admin deal list's view (src/admin/deal-list.ts): the query it reads and writes, what it shows. */
import { describe, expect, test } from 'vitest';
import { PAGE_SIZE, readView, showView, viewQuery, type ListedDeal } from '../../src/admin/deal-list.ts';

const deal = (n: number, extra: Partial<ListedDeal> = {}): ListedDeal => ({
  id: `d-${n}00`,
  slug: `deal-${n}`,
  title: `Deal ${n}`,
  category: n % 2 ? 'cloud' : 'saas',
  status: 'active',
  lastUpdated: `2026-01-${String(n).padStart(2, '0')}`,
  ...extra,
});
const name = (slug: string) => ({ cloud: 'Cloud credits', saas: 'Software' })[slug] ?? slug;

describe('readView and viewQuery', () => {
  test('a query round-trips; defaults and wrong values are left out', () => {
    expect(viewQuery(readView(new URLSearchParams('category=cloud&sponsored=yes&draft=no&sort=title&dir=desc&page=3&q=aws')))).toBe(
      '?q=aws&category=cloud&sponsored=yes&draft=no&sort=title&dir=desc&page=3',
    );
    expect(viewQuery(readView(new URLSearchParams('sort=price&dir=up&page=-2&pick=maybe')))).toBe('');
  });
});

describe('showView', () => {
  const deals = Array.from({ length: 30 }, (_, i) => deal(i + 1, { featured: i < 3, recommended: i % 5 === 0 }));

  test('the default order: drafts first, then the newest change; pages of PAGE_SIZE, the last page when asked past the end', () => {
    const withDraft = [...deals, deal(31, { draft: true, lastUpdated: '2025-01-01' })];
    const first = showView(withDraft, readView(new URLSearchParams()), name);
    expect(first.rows[0]?.slug).toBe('deal-31');
    expect(first.rows[1]?.slug).toBe('deal-30');
    expect([first.total, first.pages, first.rows.length]).toEqual([31, 2, PAGE_SIZE]);
    const past = showView(withDraft, readView(new URLSearchParams('page=9')), name);
    expect([past.page, past.rows.length]).toEqual([2, 6]);
  });

  test('filters combine; sorts by title (numbers in order), category name, date, either way', () => {
    const view = (q: string) => showView(deals, readView(new URLSearchParams(q)), name).rows.map((d) => d.slug);
    expect(view('sponsored=yes&category=cloud')).toEqual(['deal-3', 'deal-1']);
    expect(view('pick=yes&sort=title')).toEqual(['deal-1', 'deal-6', 'deal-11', 'deal-16', 'deal-21', 'deal-26']);
    expect(view('q=deal 2&sort=updated&dir=desc').slice(0, 2)).toEqual(['deal-29', 'deal-28']);
    expect(view('sort=category').slice(0, 1)).toEqual(['deal-1']);
    expect(view('sort=category&dir=desc').slice(0, 1)).toEqual(['deal-2']);
    expect(view('draft=yes')).toEqual([]);
  });
});
