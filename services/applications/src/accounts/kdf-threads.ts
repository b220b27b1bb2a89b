// The password KDF (scrypt) runs on threads of its own, at most `size` hashes at a time: a flood of
// logins then takes at most `size` cores, whatever else uses the libuv pool. The default leaves one
// core free of KDF work: max(1, cores - 1) threads. On Linux the threads can also run at a lower
// CPU priority (`nice`, those threads only), so that wherever anything else wants the CPU
// (authenticated requests, the event loops, a database on the same host) it goes first; off by
// default, because on a saturated host it starves logins, the owner's re-verification included.
// The queue is bounded (`maxWaiting`): beyond it a job is refused at once (503 + Retry-After at the
// API), except a priority one (the owner's re-verification); a job whose caller has gone (its signal
// aborted) leaves the queue without a hash computed for nobody.
import { availableParallelism } from 'node:os';
import { AppError } from '@switchboard/errors';
import { Worker } from 'node:worker_threads';

export interface KdfJob {
  password: string;
  salt: Buffer;
  keylen: number;
  N: number;
  r: number;
  p: number;
}

// Plain JavaScript evaluated in the worker (no TypeScript loader there). The thread lowers its own
// priority first when asked to; where that is not possible (not Linux, no /proc) it runs at normal priority.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
if (workerData.nice > 0) {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) require('node:os').setPriority(tid, workerData.nice);
  } catch {}
}
parentPort.on('message', ({ id, password, salt, keylen, N, r, p }) => {
  try {
    // OpenSSL needs 128*r*(N+p+2) bytes; maxmem must cover it (Node's default is 32 MiB).
    const key = scryptSync(password, Buffer.from(salt), keylen, { N, r, p, maxmem: 128 * r * (N + p + 2) + 1024 * 1024 });
    parentPort.postMessage({ id, key });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

interface Thread {
  worker: Worker;
  /** The id of the job it runs, if any (one at a time). */
  job: number | undefined;
}

interface Pending {
  job: KdfJob;
  resolve(key: Buffer): void;
  reject(err: Error): void;
  /** Called once a thread takes the job (stops listening for its caller going). */
  done?: () => void;
}

export class KdfThreads {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  /** Jobs that go before those of `queue` (in their own order). */
  private readonly urgent: Pending[] = [];
  /** Jobs sent to a thread, by id. */
  private readonly running = new Map<number, Pending>();
  private nextId = 1;
  private closing = false;

  constructor(
    private readonly size = Math.max(1, availableParallelism() - 1),
    /** Nice value of the threads (Linux; 0 = the process's own priority). */
    private readonly nice = 0,
    /** Jobs that may wait for a thread (priority ones are never refused). */
    private readonly maxWaiting = 64,
  ) {}

  get load(): { running: number; waiting: number } {
    return {
      running: this.threads.filter((t) => t.job !== undefined).length,
      waiting: this.urgent.length + this.queue.length,
    };
  }

  /**
   * Computes a hash when a thread is free; a `priority` job goes ahead of the others waiting. Refused
   * (`unavailable`, retry in a second) when `maxWaiting` jobs wait already; dropped, rejected with
   * the signal's reason, when `signal` aborts before a thread takes it.
   */
  run(job: KdfJob, priority = false, signal?: AbortSignal): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiting = this.urgent.length + this.queue.length;
      if (!priority && waiting >= this.maxWaiting && !this.idleThread())
        return reject(
          new AppError('unavailable', 'too many passwords are being checked; try again shortly', undefined, {
            retryAfterS: 1,
          }),
        );
      const list = priority ? this.urgent : this.queue;
      const pending: Pending = { job, resolve, reject };
      if (signal) {
        const drop = () => {
          const i = list.indexOf(pending);
          if (i < 0) return;
          list.splice(i, 1);
          this.dropped++;
          reject(signal.reason);
        };
        signal.addEventListener('abort', drop, { once: true });
        pending.done = () => signal.removeEventListener('abort', drop);
      }
      list.push(pending);
      this.pump();
    });
  }

  /** Jobs dropped from the queue because their caller had gone (for tests and metrics). */
  dropped = 0;

  private idleThread(): boolean {
    return this.threads.length < this.size || this.threads.some((t) => t.job === undefined);
  }

  /** The threads' count, their nice value and the bound of the queue, as configured. */
  get settings(): { size: number; nice: number; queue: number } {
    return { size: this.size, nice: this.nice, queue: this.maxWaiting };
  }

  /** Starts the threads now, so the first logins do not wait for a thread to start. */
  warm(): void {
    while (this.threads.length < this.size) this.spawn();
  }

  /** Ends the threads once they are idle: jobs sent or queued still get their answer. */
  close(): void {
    this.closing = true;
    for (const t of this.threads) if (t.job === undefined) void t.worker.terminate();
  }

  private pump(): void {
    while (this.urgent.length + this.queue.length > 0) {
      const thread =
        this.threads.find((t) => t.job === undefined) ?? (this.threads.length < this.size ? this.spawn() : undefined);
      if (!thread) return;
      const pending = (this.urgent.shift() ?? this.queue.shift())!;
      pending.done?.();
      const id = this.nextId++;
      this.running.set(id, pending);
      thread.job = id;
      // A thread with work keeps the process alive; an idle one does not.
      thread.worker.ref();
      const { password, salt, keylen, N, r, p } = pending.job;
      thread.worker.postMessage({ id, password, salt, keylen, N, r, p });
    }
  }

  private spawn(): Thread {
    const thread: Thread = {
      worker: new Worker(WORKER, { eval: true, workerData: { nice: this.nice } }),
      job: undefined,
    };
    thread.worker.unref();
    thread.worker.on('message', (m: { id: number; key?: Uint8Array; error?: string }) => {
      const pending = this.running.get(m.id);
      this.running.delete(m.id);
      thread.job = undefined;
      thread.worker.unref();
      if (this.closing && this.urgent.length + this.queue.length === 0) void thread.worker.terminate();
      if (pending) {
        if (m.key) pending.resolve(Buffer.from(m.key));
        else pending.reject(new Error(m.error ?? 'scrypt failed'));
      }
      this.pump();
    });
    const lost = (err: Error) => {
      const i = this.threads.indexOf(thread);
      if (i < 0) return;
      // A thread that died (out of memory, terminated) fails its job and is replaced on demand.
      this.threads.splice(i, 1);
      const pending = thread.job === undefined ? undefined : this.running.get(thread.job);
      if (thread.job !== undefined) this.running.delete(thread.job);
      thread.job = undefined;
      pending?.reject(err);
      this.pump();
    };
    thread.worker.on('error', lost);
    thread.worker.on('exit', () => lost(new Error('the KDF thread exited')));
    this.threads.push(thread);
    return thread;
  }
}
