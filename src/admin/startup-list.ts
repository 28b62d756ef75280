/**
 * The admin startup list's view (issue 16, item 4): a search, a draft filter, sorting by name or
 * last update, pages; read from and written to the address's query like the deal list's
 * (src/admin/deal-list.ts, whose paging and filters it shares). Pure, so unit tests can use it.
 */
import { collator, flagMatches, isFlag, pageOf, pageParam, type Flag } from './deal-list.ts';

/** What the list needs of a startup (published from GET /admin/startups, drafts from GET /admin/drafts). */
export interface ListedStartup {
  id: string;
  slug: string;
  name: string;
  category: string;
  summary?: string;
  askingPriceDisplay?: string;
  forSale?: boolean;
  lastUpdated?: string;
  draft?: boolean;
}

export const STARTUP_SORT_KEYS = ['name', 'updated'] as const;
export type StartupSortKey = (typeof STARTUP_SORT_KEYS)[number];

export interface StartupView {
  /** Words every shown startup has in its name, slug, summary or category. */
  q: string;
  draft: Flag;
  /** Unset: drafts first, then the newest change. */
  sort: StartupSortKey | '';
  dir: 'asc' | 'desc';
  page: number;
}

/**
 * The view a query asks for; anything it does not say (or says wrongly) is the default.
 * @example readStartupView(new URLSearchParams('sort=name&draft=yes')).draft // 'yes'
 */
export function readStartupView(params: URLSearchParams): StartupView {
  const sort = params.get('sort') ?? '';
  const draft = params.get('draft');
  return {
    q: params.get('q')?.trim() ?? '',
    draft: isFlag(draft) ? draft : '',
    sort: (STARTUP_SORT_KEYS as readonly string[]).includes(sort) ? (sort as StartupSortKey) : '',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page: pageParam(params),
  };
}

/**
 * The query of a view, defaults left out.
 * @example startupViewQuery({ q: '', draft: 'yes', sort: '', dir: 'asc', page: 1 }) // '?draft=yes'
 */
export function startupViewQuery(view: StartupView): string {
  const query = new URLSearchParams();
  for (const name of ['q', 'draft', 'sort'] as const) if (view[name]) query.set(name, view[name]);
  if (view.sort && view.dir === 'desc') query.set('dir', 'desc');
  if (view.page > 1) query.set('page', String(view.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The startups a view shows: filtered, ordered, cut to its page. */
export function showStartups(startups: readonly ListedStartup[], view: StartupView): { rows: ListedStartup[]; total: number; page: number; pages: number } {
  const words = view.q.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (s: ListedStartup): boolean => flagMatches(view.draft, s.draft) && words.every((w) => [s.name, s.slug, s.summary ?? '', s.category].join(' ').toLowerCase().includes(w));
  const byName = (a: ListedStartup, b: ListedStartup) => collator.compare(a.name, b.name);
  const byUpdated = (a: ListedStartup, b: ListedStartup) => (a.lastUpdated ?? '').localeCompare(b.lastUpdated ?? '');
  const sign = view.dir === 'desc' ? -1 : 1;
  const compare =
    view.sort === ''
      ? (a: ListedStartup, b: ListedStartup) => Number(b.draft === true) - Number(a.draft === true) || byUpdated(b, a) || byName(a, b)
      : view.sort === 'name'
        ? (a: ListedStartup, b: ListedStartup) => sign * byName(a, b)
        : (a: ListedStartup, b: ListedStartup) => sign * byUpdated(a, b) || byName(a, b);
  return pageOf(startups.filter(matches).sort(compare), view.page);
}
