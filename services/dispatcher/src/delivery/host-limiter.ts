// Bounded concurrency of HTTP attempts: at most `global` in flight, at most `perHost` to one host.
// A caller that cannot start waits briefly in its host's queue; hosts take turns when a slot frees.
// A host whose slots are all held by slow attempts is "congested": new work for it is not queued
// (acquire answers null and the caller defers the job), so a hanging target cannot fill the
// process with its messages and delay healthy ones.

export type Release = () => void;

export interface HostLimiterOptions {
  global: number;
  perHost: number;
  /** Longest wait in a queue before the caller is told to defer. */
  maxWaitMs: number;
  /** Most waiters per host. */
  maxQueuePerHost: number;
  /** A host is congested when all its slots are busy and the oldest attempt is older than this. */
  congestedAfterMs: number;
}

interface Waiter {
  resolve: (r: Release | null) => void;
  timer: NodeJS.Timeout;
}

interface HostState {
  /** Start time of each attempt in flight, by token. */
  inflight: Map<number, number>;
  queue: Waiter[];
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();
  private inflight = 0;
  private tokens = 0;

  constructor(
    private readonly opts: HostLimiterOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get active(): number {
    return this.inflight;
  }

  private host(name: string): HostState {
    let h = this.hosts.get(name);
    if (!h) {
      h = { inflight: new Map(), queue: [] };
      this.hosts.set(name, h);
    }
    return h;
  }

  private grant(name: string, h: HostState): Release {
    const token = ++this.tokens;
    h.inflight.set(token, this.now());
    this.inflight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      h.inflight.delete(token);
      this.inflight--;
      this.pump();
      if (h.inflight.size === 0 && h.queue.length === 0) this.hosts.delete(name);
    };
  }

  private congested(h: HostState): boolean {
    if (h.inflight.size < this.opts.perHost) return false;
    let oldest = Infinity;
    for (const t of h.inflight.values()) if (t < oldest) oldest = t;
    return this.now() - oldest > this.opts.congestedAfterMs;
  }

  /** A release function once a slot is held, or null when the caller should defer the work. */
  acquire(name: string): Promise<Release | null> {
    const h = this.host(name);
    if (h.queue.length === 0 && h.inflight.size < this.opts.perHost && this.inflight < this.opts.global) return Promise.resolve(this.grant(name, h));
    if (this.congested(h)) {
      // Everyone waiting for this host would wait for slow attempts: let them all defer now.
      for (const w of h.queue.splice(0)) {
        clearTimeout(w.timer);
        w.resolve(null);
      }
      return Promise.resolve(null);
    }
    if (h.queue.length >= this.opts.maxQueuePerHost) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          const i = h.queue.indexOf(waiter);
          if (i >= 0) h.queue.splice(i, 1);
          if (h.inflight.size === 0 && h.queue.length === 0) this.hosts.delete(name);
          resolve(null);
        }, this.opts.maxWaitMs),
      };
      h.queue.push(waiter);
    });
  }

  /** Hands free slots to waiters, one host after another (Map order, then moved to the end). */
  private pump(): void {
    let progressed = true;
    while (this.inflight < this.opts.global && progressed) {
      progressed = false;
      for (const [name, h] of this.hosts) {
        if (h.queue.length === 0 || h.inflight.size >= this.opts.perHost) continue;
        const w = h.queue.shift()!;
        clearTimeout(w.timer);
        w.resolve(this.grant(name, h));
        // round robin: this host goes to the back of the line
        this.hosts.delete(name);
        this.hosts.set(name, h);
        progressed = true;
        break;
      }
    }
  }

  /** Resolves every waiter with null (shutdown). */
  close(): void {
    for (const h of this.hosts.values()) {
      for (const w of h.queue.splice(0)) {
        clearTimeout(w.timer);
        w.resolve(null);
      }
    }
  }
}
