/** Ordering helpers for result lists: a full sort, or a cheap top-k when only a few are wanted. */

/**
 * The first `limit` items of `items` in `compare` order (all of them when `limit` is undefined).
 * For small limits it keeps a sorted window instead of sorting everything.
 * @example topK([5, 1, 4], (a, b) => a - b, 2) // [1, 4]
 */
export function topK<T>(items: T[], compare: (a: T, b: T) => number, limit?: number): T[] {
  if (limit === undefined || limit >= items.length || limit > 64) {
    items.sort(compare);
    return limit === undefined ? items : items.slice(0, limit);
  }
  const window: T[] = [];
  for (const item of items) {
    if (window.length === limit && compare(item, window[limit - 1] as T) >= 0) continue;
    let at = window.length;
    while (at > 0 && compare(item, window[at - 1] as T) < 0) at--;
    window.splice(at, 0, item);
    if (window.length > limit) window.pop();
  }
  return window;
}
