// A small read-through cache with a TTL, invalidation by tag, and coalescing of concurrent loads.
// A load that started before an invalidation of one of its tags is returned to its callers but not
// stored, so a change event is never undone by a slow lookup that read the old state. The entries
// live in an LRU cache (bounded count, TTL); this adds the tags and the loads.
import { LRUCache } from 'lru-cache';

interface Entry<V> {
  value: V;
  tags: string[];
}

export class TaggedCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly byTag = new Map<string, Set<string>>();
  private readonly loading = new Map<string, { p: Promise<V>; tags: string[] }>();
  private readonly tagGen = new Map<string, number>();
  private generation = 0;

  constructor(ttlMs: number, maxEntries = 50_000, now: () => number = Date.now) {
    this.entries = new LRUCache<string, Entry<V>>({
      max: maxEntries,
      ttl: ttlMs,
      perf: { now },
      // An entry that leaves (evicted, expired, replaced or deleted) leaves its tags too.
      dispose: (e, key) => this.untag(key, e.tags),
    });
  }

  async get(key: string, tags: string[], load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending.p;
    const gen = this.generation;
    const tagGens = tags.map((t) => this.tagGen.get(t) ?? 0);
    const p = load()
      .then((value) => {
        const fresh = gen === this.generation && tags.every((t, i) => (this.tagGen.get(t) ?? 0) === tagGens[i]);
        if (fresh) this.set(key, tags, value);
        return value;
      })
      .finally(() => {
        if (this.loading.get(key)?.p === p) this.loading.delete(key);
      });
    this.loading.set(key, { p, tags });
    return p;
  }

  private set(key: string, tags: string[], value: V): void {
    this.entries.set(key, { value, tags });
    for (const t of tags) {
      let s = this.byTag.get(t);
      if (!s) this.byTag.set(t, (s = new Set()));
      s.add(key);
    }
  }

  private untag(key: string, tags: string[]): void {
    for (const t of tags) {
      const s = this.byTag.get(t);
      s?.delete(key);
      if (s && s.size === 0) this.byTag.delete(t);
    }
  }

  invalidateTag(tag: string): void {
    this.tagGen.set(tag, (this.tagGen.get(tag) ?? 0) + 1);
    // in-flight loads for this tag are not stored; keys under it are dropped
    for (const key of [...(this.byTag.get(tag) ?? [])]) this.entries.delete(key);
    for (const [key, l] of this.loading) if (l.tags.includes(tag)) this.loading.delete(key);
    if (this.tagGen.size > 100_000) this.clear();
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.byTag.clear();
    this.loading.clear();
    this.tagGen.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
