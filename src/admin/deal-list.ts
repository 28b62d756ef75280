/**
 * The admin deal list's view (issue 16, item 5): which deals show, in what order, on which page,
 * all of it read from and written to the address's query, so a view is a link and the back
 * button steps through views. Pure (no DOM), so unit tests and the browser share it.
 */

/** What the list needs of a deal (published from GET /deals, drafts from GET /admin/drafts). */
export interface ListedDeal {
  id: string;
  slug: string;
  title: string;
  provider?: string;
  category: string;
  status: string;
  lastUpdated?: string;
  featured?: boolean;
  recommended?: boolean;
  draft?: boolean;
  tags?: string[];
}

export const SORT_KEYS = ['title', 'category', 'updated'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
/** A yes/no filter: any, only those with it, only those without. */
export type Flag = '' | 'yes' | 'no';

export interface ListView {
  /** Words every shown deal has in its title, provider, slug or tags. */
  q: string;
  category: string;
  status: string;
  sponsored: Flag;
  pick: Flag;
  draft: Flag;
  /** Unset: drafts first, then the newest change (the list's default). */
  sort: SortKey | '';
  dir: 'asc' | 'desc';
  page: number;
}

/** Deals on one page of the list. */
export const PAGE_SIZE = 25;

/**
 * The view a query asks for; anything it does not say (or says wrongly) is the default.
 * @example readView(new URLSearchParams('sort=title&page=2')).page // 2
 */
export function readView(params: URLSearchParams): ListView {
  const flag = (name: string): Flag => {
    const value = params.get(name);
    return isFlag(value) ? value : '';
  };
  const sort = params.get('sort') ?? '';
  return {
    q: params.get('q')?.trim() ?? '',
    category: params.get('category') ?? '',
    status: params.get('status') ?? '',
    sponsored: flag('sponsored'),
    pick: flag('pick'),
    draft: flag('draft'),
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : '',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page: pageParam(params),
  };
}

/**
 * The query of a view, defaults left out (empty for the default view): add it to the path.
 * @example viewQuery({ ...readView(new URLSearchParams()), category: 'cloud-credits' }) // '?category=cloud-credits'
 */
export function viewQuery(view: ListView): string {
  const query = new URLSearchParams();
  for (const name of ['q', 'category', 'status', 'sponsored', 'pick', 'draft', 'sort'] as const) if (view[name]) query.set(name, view[name]);
  if (view.sort && view.dir === 'desc') query.set('dir', 'desc');
  if (view.page > 1) query.set('page', String(view.page));
  const text = query.toString();
  return text ? `?${text}` : '';
}

/**
 * The deals a view shows: filtered, ordered, cut to its page (the last page when it asks past
 * the end). `categoryName` orders by the words shown, not the slug.
 */
export function showView(deals: readonly ListedDeal[], view: ListView, categoryName: (slug: string) => string): { rows: ListedDeal[]; total: number; page: number; pages: number } {
  const words = view.q.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (d: ListedDeal): boolean =>
    (!view.category || d.category === view.category) &&
    (!view.status || d.status === view.status) &&
    flagMatches(view.sponsored, d.featured) &&
    flagMatches(view.pick, d.recommended) &&
    flagMatches(view.draft, d.draft) &&
    words.every((w) => [d.title, d.provider ?? '', d.slug, ...(d.tags ?? [])].join(' ').toLowerCase().includes(w));
  return pageOf(deals.filter(matches).sort(order(view, categoryName)), view.page);
}

/**
 * Page `page` of `shown` (the last page when it asks past the end), with the count and pages.
 * @example pageOf(['a', 'b'], 3) // { rows: ['a', 'b'], total: 2, page: 1, pages: 1 }
 */
export function pageOf<T>(shown: readonly T[], page: number): { rows: T[]; total: number; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const at = Math.min(page, pages);
  return { rows: shown.slice((at - 1) * PAGE_SIZE, at * PAGE_SIZE), total: shown.length, page: at, pages };
}

/** Whether a record with `value` passes a yes/no filter. */
export function flagMatches(flag: Flag, value: boolean | undefined): boolean {
  return flag === '' || (flag === 'yes') === (value === true);
}

/** Whether `value` is a yes/no filter's value. */
export const isFlag = (value: string | null): value is Exclude<Flag, ''> => value === 'yes' || value === 'no';

/** The lists' order of words: case and accents aside, numbers by value. */
export const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** A whole page number from the query (1 when absent or wrong). */
export const pageParam = (params: URLSearchParams): number => {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
};

// --- internal ---

/** The comparison of a view's order; ties fall back to the title, so the order is stable. */
function order(view: ListView, categoryName: (slug: string) => string): (a: ListedDeal, b: ListedDeal) => number {
  const byTitle = (a: ListedDeal, b: ListedDeal) => collator.compare(a.title, b.title);
  const byUpdated = (a: ListedDeal, b: ListedDeal) => (a.lastUpdated ?? '').localeCompare(b.lastUpdated ?? '');
  if (view.sort === '') return (a, b) => Number(b.draft === true) - Number(a.draft === true) || byUpdated(b, a) || byTitle(a, b);
  const sign = view.dir === 'desc' ? -1 : 1;
  const key = { title: byTitle, category: (a: ListedDeal, b: ListedDeal) => collator.compare(categoryName(a.category), categoryName(b.category)), updated: byUpdated }[view.sort];
  return (a, b) => sign * key(a, b) || byTitle(a, b);
}
