/**
 * Each category's records by position, ascending, prepared once per catalog (catalog.ts): a
 * filter by category reads only that category's records instead of every one.
 */

const NONE = new Int32Array(0);
/** Every position, 0 to count − 1, by the grouping it belongs to (made once per catalog part). */
const everyPosition = new WeakMap<ReadonlyMap<string, Int32Array>, Int32Array>();

/**
 * The positions a filter reads, ascending: `category`'s records (none for an unknown category),
 * or every one of the `count` records when no category is asked for.
 * @example positionsToRead(catalog.dealsByCategory, 'cloud-credits', catalog.deals.length) // Int32Array [0, 4, 9, …]
 */
export function positionsToRead(byCategory: ReadonlyMap<string, Int32Array>, category: string | undefined, count: number): Int32Array {
  if (category !== undefined) return byCategory.get(category) ?? NONE;
  let all = everyPosition.get(byCategory);
  if (all?.length !== count) everyPosition.set(byCategory, (all = Int32Array.from({ length: count }, (_, i) => i)));
  return all;
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
