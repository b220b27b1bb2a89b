// Each target's share of the retry consumer's window. Every retry job that waits for its time (or
// for its host) is an un-acknowledged message of the retry consumer, and the consumer's
// max_ack_pending (DELIVERY_MAX_SCHEDULED) is one window for all targets: a dead endpoint with
// 100k waiting retries would fill it and keep every other target's retries in the stream, undelivered,
// for as long as they wait (days). So a target (subscription, or application for sessions) may
// have at most `perTarget` jobs waiting in the window; the rest are parked on a subject of their
// own (outside the window) and come back as the target's jobs leave it. Jobs due later than a
// horizon may take only half of the share, so jobs due soon always find room: a target's far-off
// retries never hold up its own due ones.
//
// Counted per process, by message: a job is counted from the nak that hands it back until JetStream
// delivers it again (or, should another replica get it, until well after it was due).
import type { Job } from '../jobs';

export function targetKey(job: Job): string {
  return job.kind === 'notification' ? `sub:${job.subscriptionId}` : `app:${job.event.applicationId}`;
}

interface Target {
  /** Due time of each waiting message, by stream sequence. */
  waiting: Map<number, number>;
  /** Jobs of this target parked by this process and not yet moved back. */
  parked: number;
}

export class ScheduledShares {
  private readonly targets = new Map<string, Target>();

  /**
   * `perTarget`: jobs of one target waiting in the retry window; `graceMs`: how long after its due
   * time a job that did not come back here (another replica got it) still counts; `horizonMs`: a
   * job due later than this is far off.
   */
  constructor(
    readonly perTarget: number,
    private readonly graceMs: number,
    private readonly horizonMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private target(key: string): Target {
    let t = this.targets.get(key);
    if (!t) {
      t = { waiting: new Map(), parked: 0 };
      this.targets.set(key, t);
    }
    return t;
  }

  private prune(key: string, t: Target): void {
    const limit = this.now() - this.graceMs;
    for (const [seq, due] of t.waiting) if (due < limit) t.waiting.delete(seq);
    if (t.waiting.size === 0 && t.parked <= 0) this.targets.delete(key);
  }

  /** How many jobs of a target may wait in the window, for a job due at `dueAt`. */
  private limit(dueAt: number): number {
    return dueAt - this.now() > this.horizonMs ? Math.ceil(this.perTarget / 2) : this.perTarget;
  }

  /** Counts a job handed back to wait until `dueAt`; false (nothing counted) when the target's share is full. */
  hold(key: string, seq: number, dueAt: number): boolean {
    const t = this.target(key);
    this.prune(key, t);
    if (t.waiting.size >= this.limit(dueAt)) return false;
    t.waiting.set(seq, dueAt);
    this.targets.set(key, t);
    return true;
  }

  /** The job came back from the window. */
  leave(key: string, seq: number): void {
    const t = this.targets.get(key);
    if (!t) return;
    t.waiting.delete(seq);
    this.prune(key, t);
  }

  parked(key: string): void {
    this.target(key).parked++;
  }

  /**
   * A parked job of `key`, due at `dueAt`, may go back to the window: 0. Otherwise how long to wait
   * before asking again: until its target's earliest waiting job is due (or, for a job due far off,
   * until it comes near), longer the more jobs of it are parked.
   */
  unparkIn(key: string, dueAt: number): number {
    const t = this.targets.get(key);
    if (t) this.prune(key, t);
    if (!t || t.waiting.size < this.limit(dueAt)) {
      if (t && t.parked > 0) t.parked--;
      return 0;
    }
    let earliest = Infinity;
    for (const due of t.waiting.values()) if (due < earliest) earliest = due;
    const until = Math.max(Math.min(earliest, dueAt - this.horizonMs / 2) - this.now(), 1000);
    const base = Math.min(until, 600_000);
    const spread = Math.min(t.parked / this.perTarget, 3);
    return Math.round(base * (1 + spread * Math.random()));
  }

  /** Jobs counted in the window and parked, over all targets (metrics). */
  totals(): { waiting: number; parked: number; full: number } {
    let waiting = 0;
    let parked = 0;
    let full = 0;
    for (const t of this.targets.values()) {
      waiting += t.waiting.size;
      parked += Math.max(0, t.parked);
      if (t.waiting.size >= this.perTarget) full++;
    }
    return { waiting, parked, full };
  }
}
