import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used map (lru-cache) bounded by both its entry count and an estimate of the
 * memory its keys and values take, so that an attacker sending long usernames cannot grow it past
 * `maxBytes` by staying under the entry count. Past either bound the least recently used keys go,
 * never the whole table.
 */
export class BoundedMap<V extends {}> {
  private readonly cache: LRUCache<string, V>;

  constructor(
    limits: { maxEntries: number; maxBytes: number },
    /** Bytes one value takes besides its key (a fixed estimate of the object). */
    valueBytes = 64,
  ) {
    this.cache = new LRUCache<string, V>({
      ...(Number.isFinite(limits.maxEntries) ? { max: limits.maxEntries } : {}),
      maxSize: limits.maxBytes,
      // A JavaScript string takes up to 2 bytes a character, the entry some more.
      sizeCalculation: (_value, key) => key.length * 2 + valueBytes + 48,
    });
  }

  get size(): number {
    return this.cache.size;
  }

  get bytes(): number {
    return this.cache.calculatedSize;
  }

  /** The value, marked as most recently used. */
  get(key: string): V | undefined {
    return this.cache.get(key);
  }

  /** Without touching its recency. */
  peek(key: string): V | undefined {
    return this.cache.peek(key);
  }

  set(key: string, value: V): void {
    this.cache.set(key, value);
  }

  delete(key: string): boolean {
    return this.cache.delete(key);
  }
}
