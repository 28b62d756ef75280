/**
 * Each category's records by position, ascending, prepared once per catalog (catalog.ts): a
 * filter by category reads only that category's records instead of every one.
 */

const NONE = new Int32Array(0);

/**
 * The positions of `category`'s records in `byCategory` (none for an unknown category), or
 * `undefined` when no category is asked for (read every position).
 * @example categoryPositions(catalog.dealsByCategory, 'cloud-credits') // Int32Array [0, 4, 9, …]
 */
export function categoryPositions(byCategory: ReadonlyMap<string, Int32Array>, category: string | undefined): Int32Array | undefined {
  return category === undefined ? undefined : (byCategory.get(category) ?? NONE);
}

/**
 * Positions of records grouped by a key, each group ascending.
 * @example positionsBy(deals, (deal) => deal.category)
 */
export function positionsBy<T>(records: readonly T[], key: (record: T) => string): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  records.forEach((record, position) => {
    const name = key(record);
    const list = lists.get(name);
    if (list) list.push(position);
    else lists.set(name, [position]);
  });
  return new Map([...lists].map(([name, list]) => [name, Int32Array.from(list)]));
}
