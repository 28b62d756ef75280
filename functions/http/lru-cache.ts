/**
 * Bounded least-recently-used map, by entry count and by total size. Used for prepared
 * answers and for the app's answer cache (http/middleware.ts). The size of an entry is its value's
 * size plus its key's length: a key is kept as surely as its value, and keys come from
 * request URLs (issue 11, item 8: long URLs made keys outweigh the answers).
 */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly sizeOf: (value: V) => number;

  /** A cache with `maxEntries` 0 stores nothing (the "cache off" setting). */
  constructor(maxEntries: number, maxBytes: number, sizeOf: (value: V) => number) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Re-insert to mark it most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const size = this.entrySize(key, value);
    if (this.maxEntries === 0 || size > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old !== undefined) this.bytes -= this.entrySize(key, old);
    this.entries.delete(key);
    this.entries.set(key, value);
    this.bytes += size;
    for (const [oldest, evicted] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= this.entrySize(oldest, evicted);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes accounted for the entries kept now (keys and values); never above the bound. */
  get bytesUsed(): number {
    return this.bytes;
  }

  // Keys are URLs, ASCII or Latin-1, which V8 keeps at one byte per character.
  private entrySize(key: string, value: V): number {
    return key.length + this.sizeOf(value);
  }
}

/**
 * Longest query string (after `?`) whose answer is cached. Longer ones are legitimate but rare
 * (no documented parameter needs that much), and caching them would let a client spend the
 * cache's memory on keys: their answers are computed on every request instead.
 */
export const MAX_CACHED_QUERY_LENGTH = 512;
