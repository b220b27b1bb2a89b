// Bounded concurrency of HTTP attempts with a waiting line per host: at most `global` attempts in
// flight, at most `perHost` to one host. A "host" here is whatever key the caller gives: the sender
// gives a lane (an account on a target host), so each tenant has its own slots and queue on a shared
// host. A job that cannot start at once waits in memory in its
// host's FIFO queue (order of arrival per host) instead of going back to JetStream; hosts take
// turns for free global slots (round robin), so a busy host's queue never holds up another host.
// Memory is bounded by a cap per host and a cap over all hosts; beyond them, and for a host that
// cannot take attempts (circuit breaker open, slots held by hanging attempts), the caller is told to
// defer the job. While a host's breaker is half-open only its probe goes; the queue waits for the
// probe's outcome and is turned away (until the next reset) when the breaker opens again.

export type Release = () => void;

/** Why a job cannot wait in memory for its host; `waitMs`: when the host could take it. */
export type Refusal = { reason: 'breaker_open' | 'host_busy' | 'queue_full' | 'shutdown'; waitMs: number };

/** What the host's circuit breaker allows now. */
export type Gate = { state: 'closed' } | { state: 'open'; waitMs: number } | { state: 'half_open' };

export interface HostLimiterOptions {
  global: number;
  perHost: number;
  /** Most jobs waiting for one host. */
  maxQueuePerHost: number;
  /** Most jobs waiting over all hosts. */
  maxQueued: number;
  /** A host is congested when all its slots are busy and the oldest attempt is older than this. */
  congestedAfterMs: number;
  /** The breaker of a host (breakers.ts); always closed when not given. */
  gate?: (host: string) => Gate;
  /**
   * While true, no attempt starts: admitted jobs wait in their hosts' queues (the record buffer is
   * full: recording/record-buffer.ts); resume() once it is false again.
   */
  held?: () => boolean;
}

/**
 * A job admitted at once or put in its host's queue (`slot` settles when it may start, or with a
 * refusal when it was turned away while waiting), or one refused at the door.
 */
export type Admission = { slot: Promise<Release | Refusal> } | { refused: Refusal };

interface Waiter {
  resolve: (r: Release | Refusal) => void;
}

interface HostState {
  /** Start time of each attempt in flight, by token. */
  inflight: Map<number, number>;
  queue: Waiter[];
  /** Moving average of attempt durations (ms), to say how long a full queue takes to drain. */
  meanMs: number;
}

const closedGate: Gate = { state: 'closed' };

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();
  private inflight = 0;
  private queued = 0;
  private tokens = 0;
  private closing = false;

  constructor(
    private readonly opts: HostLimiterOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get active(): number {
    return this.inflight;
  }

  /** Jobs waiting in the hosts' queues. */
  get waiting(): number {
    return this.queued;
  }

  /** Hosts with jobs waiting. */
  get waitingHosts(): number {
    let n = 0;
    for (const h of this.hosts.values()) if (h.queue.length > 0) n++;
    return n;
  }

  private host(name: string): HostState {
    let h = this.hosts.get(name);
    if (!h) {
      h = { inflight: new Map(), queue: [], meanMs: 0 };
      this.hosts.set(name, h);
    }
    return h;
  }

  private gate(name: string): Gate {
    return this.opts.gate?.(name) ?? closedGate;
  }

  /** Attempts the host may have in flight now: none while open, the one probe while half-open. */
  private hostLimit(g: Gate): number {
    return g.state === 'closed' ? this.opts.perHost : g.state === 'half_open' ? 1 : 0;
  }

  private grant(name: string, h: HostState): Release {
    const token = ++this.tokens;
    const started = this.now();
    h.inflight.set(token, started);
    this.inflight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      h.inflight.delete(token);
      this.inflight--;
      const took = this.now() - started;
      h.meanMs = h.meanMs === 0 ? took : h.meanMs * 0.9 + took * 0.1;
      this.pump();
      this.forgetIfIdle(name, h);
    };
  }

  private forgetIfIdle(name: string, h: HostState): void {
    if (h.inflight.size === 0 && h.queue.length === 0) this.hosts.delete(name);
  }

  private congested(h: HostState): boolean {
    if (h.inflight.size < this.opts.perHost) return false;
    // Attempts are added in the order they start, so the first one left is the oldest.
    const oldest = h.inflight.values().next().value ?? Infinity;
    return this.now() - oldest > this.opts.congestedAfterMs;
  }

  /** About how long the host's queue takes to drain at its recent pace (at least 1 s). */
  private drainMs(h: HostState): number {
    return Math.max(1000, Math.round(((h.queue.length + 1) * Math.max(h.meanMs, 1)) / this.opts.perHost));
  }

  /** Turns away everyone waiting for a host. */
  private flush(h: HostState, refusal: Refusal): void {
    const waiters = h.queue.splice(0);
    this.queued -= waiters.length;
    for (const w of waiters) w.resolve(refusal);
  }

  /** Admits a job for `name`: a slot now, a place in the host's queue, or a refusal. */
  acquire(name: string): Admission {
    if (this.closing) return { refused: { reason: 'shutdown', waitMs: 1000 } };
    const g = this.gate(name);
    if (g.state === 'open') return { refused: { reason: 'breaker_open', waitMs: g.waitMs } };
    const h = this.host(name);
    if (
      h.queue.length === 0 &&
      h.inflight.size < this.hostLimit(g) &&
      this.inflight < this.opts.global &&
      !this.opts.held?.()
    )
      return { slot: Promise.resolve(this.grant(name, h)) };
    if (g.state === 'closed' && this.congested(h)) {
      // Everyone waiting for this host would wait for hanging attempts: JetStream keeps them instead.
      const refusal: Refusal = { reason: 'host_busy', waitMs: this.drainMs(h) };
      this.flush(h, refusal);
      this.forgetIfIdle(name, h);
      return { refused: refusal };
    }
    if (h.queue.length >= this.opts.maxQueuePerHost || this.queued >= this.opts.maxQueued) {
      const refusal: Refusal = { reason: 'queue_full', waitMs: this.drainMs(h) };
      this.forgetIfIdle(name, h);
      return { refused: refusal };
    }
    this.queued++;
    return { slot: new Promise((resolve) => h.queue.push({ resolve })) };
  }

  /** Hands free slots to waiting jobs, one host after another (Map order, then moved to the end). */
  private pump(): void {
    let progressed = true;
    while (this.inflight < this.opts.global && this.queued > 0 && progressed && !this.opts.held?.()) {
      progressed = false;
      for (const [name, h] of this.hosts) {
        if (h.queue.length === 0) continue;
        const g = this.gate(name);
        if (g.state === 'open') {
          // The breaker opened (again) while they waited: they wait for its reset outside memory.
          this.flush(h, { reason: 'breaker_open', waitMs: g.waitMs });
          this.forgetIfIdle(name, h);
          continue;
        }
        if (h.inflight.size >= this.hostLimit(g)) continue;
        const w = h.queue.shift()!;
        this.queued--;
        w.resolve(this.grant(name, h));
        // round robin: this host goes to the back of the line
        this.hosts.delete(name);
        this.hosts.set(name, h);
        progressed = true;
        break;
      }
    }
  }

  /** Starts waiting jobs again after `held` turned false. */
  resume(): void {
    this.pump();
  }

  /** Turns away every waiting job and every new one (shutdown): they are deferred, not attempted. */
  close(): void {
    this.closing = true;
    for (const h of this.hosts.values()) this.flush(h, { reason: 'shutdown', waitMs: 1000 });
  }
}
