/**
 * A least-recently-used map bounded by both its entry count and an estimate of the memory its
 * keys and values take, so that an attacker sending long usernames cannot grow it past `maxBytes`
 * by staying under the entry count.
 */
export class BoundedMap<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxBytes: number },
    /** Bytes one value takes besides its key (a fixed estimate of the object). */
    private readonly valueBytes = 64,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.used;
  }

  /** The value, marked as most recently used. */
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** Without touching its recency. */
  peek(key: string): V | undefined {
    return this.map.get(key)?.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    // A JavaScript string takes up to 2 bytes a character, the Map entry some more.
    const bytes = key.length * 2 + this.valueBytes + 48;
    this.map.set(key, { value, bytes });
    this.used += bytes;
    // Maps iterate in insertion order, and get() re-inserts: the first key is the least recently used.
    for (const k of this.map.keys()) {
      if (this.map.size <= this.limits.maxEntries && this.used <= this.limits.maxBytes) break;
      this.delete(k);
    }
  }

  delete(key: string): boolean {
    const e = this.map.get(key);
    if (!e) return false;
    this.map.delete(key);
    this.used -= e.bytes;
    return true;
  }
}
