/** Ordering helpers for result lists: a full sort, or a cheap top-k when only a few are wanted. */

/**
 * The first `limit` items of `items` in `compare` order (all of them when `limit` is undefined).
 * For small limits it keeps a sorted window instead of sorting everything. A typed array (the
 * hits a search kept, search.ts `HitColumns.kept`) is sorted in place when it is sorted whole.
 * @example topK([5, 1, 4], (a, b) => a - b, 2) // [1, 4]
 */
export function topK(items: number[] | Int32Array, compare: (a: number, b: number) => number, limit?: number): number[] {
  if (limit === undefined || limit >= items.length || limit > 64) {
    const sorted = items.sort(compare);
    const first = limit === undefined ? sorted : sorted.slice(0, limit);
    return Array.isArray(first) ? first : Array.from(first);
  }
  const window: number[] = [];
  for (const item of items) {
    if (window.length === limit && compare(item, window[limit - 1] as number) >= 0) continue;
    let at = window.length;
    while (at > 0 && compare(item, window[at - 1] as number) < 0) at--;
    window.splice(at, 0, item);
    if (window.length > limit) window.pop();
  }
  return window;
}
