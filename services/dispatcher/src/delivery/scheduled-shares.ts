// Each target's share of the retry consumer's window. Every retry job that waits for its time (or
// for its host) is an un-acknowledged message of the retry consumer, and the consumer's
// max_ack_pending (DELIVERY_MAX_SCHEDULED) is one window for all targets: a dead endpoint with
// 100k waiting retries would fill it and keep every other target's retries in the stream, undelivered,
// for as long as they wait (days). So a target (subscription, or application for sessions) may
// have at most `perTarget` jobs waiting in the window; the rest are parked on a subject of their
// own (outside the window), a line that goes round at a steady pace (at most `rotationsPerSecond`
// jobs a second, and each job at most once a `minRoundMs`), and come back as the target's jobs
// leave the window. Jobs due later than a
// horizon may take only half of the share, so jobs due soon always find room: a target's far-off
// retries never hold up its own due ones.
//
// Counted per process, by message: a job is counted from the nak that hands it back until JetStream
// delivers it again (or, should another replica get it, until well after it was due).
import { isStatusCallback, type Job } from '../jobs.ts';

export function targetKey(job: Job): string {
  if (job.kind !== 'notification') return `app:${job.event.applicationId}`;
  // Status callbacks share their application's line: the callbacks of one application are one target.
  return isStatusCallback(job) ? `cb:${job.event.applicationId}` : `sub:${job.subscriptionId}`;
}

interface Target {
  /** Due time of each waiting message, by stream sequence. */
  waiting: Map<number, number>;
}

export class ScheduledShares {
  private readonly targets = new Map<string, Target>();
  private nextRotation = 0;

  /**
   * `perTarget`: jobs of one target waiting in the retry window; `graceMs`: how long after its due
   * time a job that did not come back here (another replica got it) still counts; `horizonMs`: a
   * job due later than this is far off.
   */
  constructor(
    readonly perTarget: number,
    private readonly graceMs: number,
    private readonly horizonMs: number,
    private readonly rotationsPerSecond = 500,
    private readonly now: () => number = Date.now,
    readonly minRoundMs = 1000,
  ) {}

  private target(key: string): Target {
    let t = this.targets.get(key);
    if (!t) {
      t = { waiting: new Map() };
      this.targets.set(key, t);
    }
    return t;
  }

  private prune(key: string, t: Target): void {
    const limit = this.now() - this.graceMs;
    for (const [seq, due] of t.waiting) if (due < limit) t.waiting.delete(seq);
    if (t.waiting.size === 0) this.targets.delete(key);
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

  /** Whether a parked job of `key`, due at `dueAt`, may go back to the window now. */
  mayReturn(key: string, dueAt: number): boolean {
    const t = this.targets.get(key);
    if (t) this.prune(key, t);
    return !t || t.waiting.size < this.limit(dueAt);
  }

  /**
   * How long a parked job still waits before it goes round again, given when it was parked (its
   * message's stream time): a short line would otherwise go round hundreds of times a second, each
   * round a publish of every job in it.
   */
  roundWait(parkedAt: number): number {
    return Math.max(0, Math.ceil(parkedAt + this.minRoundMs - this.now()));
  }

  /**
   * Paces the parked line going round: at most `rotationsPerSecond` parked jobs go back to its end
   * per second, so a dead target's parked backlog costs a steady trickle, not a busy loop.
   */
  paceRotation(): Promise<void> {
    const now = this.now();
    this.nextRotation = Math.max(this.nextRotation + 1000 / this.rotationsPerSecond, now);
    const wait = this.nextRotation - now;
    return wait > 1 ? new Promise((r) => setTimeout(r, wait)) : Promise.resolve();
  }
}
