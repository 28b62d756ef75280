/**
 * The one cache of prepared answers: API answers, the finished responses of the answer-cache
 * step, live pages and their Markdown twins, each valid for one catalog version (the content
 * hash every served catalog carries, `catalog.version`). One bound for all of them, by entries
 * and by bytes, keys counted, kept by `lru-cache`.
 *
 * What is kept outside it, per catalog version, is the fixed set whose size the route table
 * decides and no request can multiply: the pinned default lists (reads/catalog-state.ts) and
 * the documents (docs/document-cache.ts), which at 50,000 deals are larger than any share of a
 * bound an LRU could give them and would be rendered again on every request once evicted.
 */
import { LRUCache } from 'lru-cache';

/** What an entry is: it names the key's namespace, and whether the answer-cache switch applies. */
export type PreparedKind = 'answer' | 'response' | 'page';

/**
 * Longest query string (after `?`) whose answer is cached. Longer ones are legitimate but rare
 * (no documented parameter needs that much), and caching them would let a client spend the
 * cache's memory on keys: their answers are computed on every request instead.
 */
export const MAX_CACHED_QUERY_LENGTH = 512;

interface Entry {
  version: string;
  value: unknown;
  bytes: number;
}

export class PreparedCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly answers: boolean;

  /**
   * @param options.answers false for `ANSWER_CACHE=off`: API answers and responses are then made
   *   for every request (to measure them); live pages are kept all the same
   */
  constructor(options: { maxEntries: number; maxBytes: number; answers: boolean }) {
    this.answers = options.answers;
    this.entries = new LRUCache<string, Entry>({
      max: Math.max(1, options.maxEntries),
      maxSize: options.maxBytes,
      // A key is kept as surely as its value; keys come from URLs (ASCII, one byte a character).
      sizeCalculation: (entry, key) => entrySize(entry.bytes, key),
      // No single entry may take more than a quarter of the whole.
      maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 4)),
    });
  }

  /** Whether API answers and responses are kept (`ANSWER_CACHE` not `off`). */
  get keepsAnswers(): boolean {
    return this.answers;
  }

  /** Whether `set` would keep a value of `bytes` (none may take more than a quarter of the whole). */
  fits(kind: PreparedKind, key: string, bytes: number): boolean {
    return entrySize(bytes, slot(kind, key)) <= this.entries.maxEntrySize;
  }

  /** The value kept for `key` if it was prepared for this catalog `version`. */
  get<V>(kind: PreparedKind, key: string, version: string): V | undefined {
    if (!this.answers && kind !== 'page') return undefined;
    const entry = this.entries.get(slot(kind, key));
    return entry?.version === version ? (entry.value as V) : undefined;
  }

  /** Keep `value`, prepared for catalog `version`, of `bytes` size; it replaces an older version's. */
  set(kind: PreparedKind, key: string, version: string, value: unknown, bytes: number): void {
    if (!this.answers && kind !== 'page') return;
    this.entries.set(slot(kind, key), { version, value, bytes });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes accounted for the entries kept now (keys and values); never above the bound. */
  get bytesUsed(): number {
    return this.entries.calculatedSize;
  }
}

// --- internal ---

/** Where a kind's key is kept: one cache holds every kind. */
const slot = (kind: PreparedKind, key: string): string => `${kind} ${key}`;

/** What an entry counts against the bound: its value's bytes and its key's. */
const entrySize = (bytes: number, key: string): number => Math.max(1, bytes + key.length);
