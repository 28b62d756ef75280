/**
 * Values a catalog derives on first use (a filter's stats and fact table, a sort order), kept
 * by key for the catalog's life. A write makes a new catalog, so none goes stale, and a
 * catalog no longer served takes its values with it (a WeakMap).
 */
import type { Catalog } from './catalog.ts';

export class PerCatalog<V> {
  readonly #byCatalog = new WeakMap<Catalog, Map<string, V>>();

  /** The value kept under `key`, if one is. */
  peek(catalog: Catalog, key: string): V | undefined {
    return this.#byCatalog.get(catalog)?.get(key);
  }

  /** Keep `value` under `key`, and return it. */
  keep(catalog: Catalog, key: string, value: V): V {
    let values = this.#byCatalog.get(catalog);
    if (!values) this.#byCatalog.set(catalog, (values = new Map()));
    values.set(key, value);
    return value;
  }

  /**
   * The value kept under `key`, made by `make` the first time.
   * @example sortOrders.of(catalog, 'value', () => prepare(catalog.deals, compare))
   */
  of(catalog: Catalog, key: string, make: () => V): V {
    return this.peek(catalog, key) ?? this.keep(catalog, key, make());
  }
}
