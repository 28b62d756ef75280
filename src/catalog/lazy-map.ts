import { once } from './once.ts';

/**
 * A read-only map made from its entries on first use. The catalog's lookup maps (by slug, by
 * id) are: at 50,000 deals and 100,000 startups the five took about 250 ms of the start, before
 * the server could listen, while most processes answer lists and searches first
 * (docs/performance.md, fifteenth sitting).
 */
export class LazyMap<K, V> implements ReadonlyMap<K, V> {
  readonly #made: () => Map<K, V>;

  /**
   * `fill` sets the entries into the new map (no array per entry, as `new Map(entries)` takes).
   * @example new LazyMap((map) => deals.forEach((deal) => map.set(deal.slug, deal)))
   */
  constructor(fill: (map: Map<K, V>) => void) {
    this.#made = once(() => {
      const map = new Map<K, V>();
      fill(map);
      return map;
    });
  }

  get size(): number {
    return this.#made().size;
  }

  get(key: K): V | undefined {
    return this.#made().get(key);
  }

  has(key: K): boolean {
    return this.#made().has(key);
  }

  forEach(each: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    this.#made().forEach((value, key) => each.call(thisArg, value, key, this));
  }

  entries(): MapIterator<[K, V]> {
    return this.#made().entries();
  }

  keys(): MapIterator<K> {
    return this.#made().keys();
  }

  values(): MapIterator<V> {
    return this.#made().values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.#made()[Symbol.iterator]();
  }
}
