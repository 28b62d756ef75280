/**
 * Paging for the on-demand search result pages: the page number from the query string and
 * the links to the previous and next pages (same query, other page).
 */

/** The page asked for (1 to 1000) and hrefs for its neighbours. */
export function paging(params: URLSearchParams): { page: number; previous: string; next: string } {
  const page = Math.max(1, Math.min(1000, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const link = (n: number) => {
    const query = new URLSearchParams(params);
    query.set('page', String(n));
    return `?${query}`;
  };
  return { page, previous: link(page - 1), next: link(page + 1) };
}
