// One delivery job -> one signed HTTP attempt, recorded. A first attempt runs straight from the
// inbound event (no extra hop); a job whose host has no free slot waits in memory in its host's
// queue (host-limiter.ts); a failed attempt that may be retried, and a job that must wait longer
// (breaker open, host queue full, lookup unavailable), becomes a job on the retry subject with a
// `notBefore` time, held by JetStream until due. The message that carried the job (the inbound
// event, or the retry job) is acknowledged only after the attempt record is stored and the
// successor job, if any, is published: a crash at any point re-delivers, it never loses.
//
// The worker only runs the steps: plan.ts says where and what to send, the signed sender makes the
// attempt, outcome.ts and the retry settings (policies/notification.ts) say what follows, in-flight.ts tracks the recording.
import type { JetStreamClient, JsMsg } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { startAuthenticated, type TokenCache } from './endpoint-auth.ts';
import { attemptOptions } from './subscription-settings.ts';
import { parseJob, type Job, type NotificationJob, type SessionJob } from '../jobs.ts';
import { JOB_SUBJECTS } from '../streams.ts';
import { isLookupUnavailable, type Lookups, type SubscriptionTarget } from '../lookup/lookups.ts';
import type { DispatcherMetrics } from '../metrics.ts';
import type { AttemptRecorder, DisableRequest } from '../recording/attempt-recorder.ts';
import { terminate } from '../events/terminate.ts';
import type { InFlight } from './in-flight.ts';
import { attemptRecord, EXCERPT_BYTES, type AttemptFields, type RecordBase } from '../recording/attempt-record.ts';
import { planJob, type Plan } from './plan.ts';
import { jitter } from './retry.ts';
import { classifyAttempt } from './outcome.ts';
import { whileHostUnavailable, type DurableRetrySettings } from './policies/notification.ts';
import type { HostWait, SignedSender } from './signed-sender.ts';
import { targetKey, type ScheduledShares } from './scheduled-shares.ts';
import { endReason, type DeliveryBacklog, type WaitingEnd, type WaitingMark } from './backlog.ts';
import { heldTooLongReason, type Ordering } from './ordering.ts';
import { waitsForSlot, type Throttle } from './throttle.ts';

export interface DeliveryWorkerDeps {
  js: JetStreamClient;
  lookups: Lookups;
  sender: SignedSender;
  /** OAuth2 tokens of subscriptions with `auth` (endpoint-auth.ts). */
  tokens?: TokenCache;
  /** The retry schedule of notifications and how long a job may wait for its host. */
  retry: DurableRetrySettings;
  recorder: AttemptRecorder;
  inFlight: InFlight;
  /** Each target's share of the retry consumer's window. */
  shares: ScheduledShares;
  metrics: DispatcherMetrics;
  /** Sessions are real-time: they run their own loop (session-loop.ts), never the retry schedule. */
  sessions: { run(job: SessionJob, msg: JsMsg): Promise<AttemptDone> };
  /** Each account's waiting deliveries, and their max age. */
  backlog: DeliveryBacklog;
  /** Longest a waiting job is handed back to JetStream before it is looked at again (its backlog and age). */
  backlogRecheckMs: number;
  /** Ordering by key of the subscriptions that ask for it (ordering.ts). */
  ordering?: Ordering;
  /** Each subscription's rate limit, shared by the replicas (`rateLimit.perSecond`). */
  throttle: Throttle;
  logger: Logger;
}

/**
 * Where a job came from. `msg` is the JetStream message to keep alive while the job finishes;
 * `fromRetry` jobs wait by nak(delay) on their own message, first attempts (from an event) wait
 * by becoming a retry job.
 */
export interface JobSource {
  msg: JsMsg;
  fromRetry: boolean;
}

/** How a job ended: its message may be acknowledged, or it was handed back to JetStream (nak). */
export type JobEnd = 'ack' | 'nak';

/**
 * What run() resolves with once the job's attempt is done (or it was decided that none is made):
 * `recording` settles once the attempt is recorded and any successor job published, and says
 * whether the source message may then be acknowledged. An object, so that awaiting run() does not
 * wait for the recording.
 */
export interface AttemptDone {
  readonly recording: Promise<JobEnd>;
}

type DeferReason = HostWait | 'lookup_unavailable' | 'throttled';

/** How an attempt is recorded (an outcome reached without an HTTP attempt has status 0 and no time). */
interface Recorded extends AttemptFields {
  /** Delay before the next attempt, published as a retry job when the outcome is `retrying`. */
  retryInMs?: number;
  disable?: DisableRequest;
}

const attemptDone = (recording: Promise<JobEnd>): AttemptDone => ({ recording });
/** A notification's answer is read up to EXCERPT_BYTES (and one more, to tell a longer one), not dumped. */
const EXCERPT_OPTIONS = { readBodyUpTo: EXCERPT_BYTES } as const;

export class DeliveryWorker {
  constructor(private readonly d: DeliveryWorkerDeps) {}

  /** The job a message carries; a malformed one is terminated (undefined). */
  private jobOf(msg: JsMsg): Job | undefined {
    try {
      return parseJob(msg.data);
    } catch (err) {
      terminate(msg, `invalid delivery job: ${(err as Error).message}`, this.d);
      return undefined;
    }
  }

  /** Handler of the retry consumer. */
  async handleRetry(msg: JsMsg): Promise<void> {
    const job = this.jobOf(msg);
    if (!job) return;
    // Back from the window: it no longer counts against its target's share.
    this.d.shares.leave(targetKey(job), msg.seq);
    return this.runWaiting(job, msg, await this.endOf(job));
  }

  /** Whether a job that waited ends now: past its age, or among the oldest past its account's cap. */
  private endOf(job: Job): Promise<WaitingEnd | undefined> {
    if (job.kind !== 'notification') return Promise.resolve(undefined);
    const held = this.d.ordering?.endOf(job);
    return held ? Promise.resolve(held) : this.d.backlog.endOf(job, job.event.accountId);
  }

  /** Runs a job that waited (a retry, or a parked job that ends now). */
  private async runWaiting(job: Job, msg: JsMsg, end: WaitingEnd | undefined): Promise<void> {
    const { recording } = await this.run(job, { msg, fromRetry: true }, undefined, end);
    return this.d.inFlight.track(
      msg,
      recording.then((jobEnd) => {
        if (jobEnd === 'ack') msg.ack();
      }),
    );
  }

  /**
   * Handler of the parked consumer: a parked job goes back to the retry subject once its target's
   * share of the window has room, else to the back of the parked line.
   */
  async handleParked(msg: JsMsg): Promise<void> {
    const job = this.jobOf(msg);
    if (!job) return;
    const end = await this.endOf(job);
    if (end) return this.runWaiting(job, msg, end);
    if (this.d.shares.mayReturn(targetKey(job), job.notBefore ?? 0)) {
      await this.d.js.publish(JOB_SUBJECTS.retry, msg.data, { msgID: `${job.webhookId}:u${job.attempt}:k${msg.seq}` });
    } else {
      // Still no room. A job parked less than a round ago waits out the rest of the round where it
      // is: only a short line comes round that soon, and it fits the parked consumer's window.
      const wait = this.d.shares.roundWait(msg.time.getTime());
      if (wait > 0) return msg.nak(wait);
      // Else to the back of the parked line, so the jobs behind it (of other targets, or due
      // sooner) are looked at too; a nak would keep a long line in the parked consumer's window.
      await this.d.shares.paceRotation();
      await this.d.js.publish(JOB_SUBJECTS.parked, msg.data, { msgID: `${job.webhookId}:q${job.attempt}:k${msg.seq}` });
    }
    msg.ack();
  }

  /**
   * Runs one job up to the admission of its HTTP attempt (a slot, or a place in its host's queue).
   * `matched`: the subscription fan-out matched for a first attempt (see planJob). `end`: the
   * waiting delivery ends now without an attempt (backlog.ts), recorded as failed.
   */
  async run(job: Job, source: JobSource, matched?: SubscriptionTarget, end?: WaitingEnd): Promise<AttemptDone> {
    if (job.kind === 'session') return this.d.sessions.run(job, source.msg);
    // A pulled batch is handled as one long chain of promise callbacks; a turn of the event loop
    // per job lets the answers of attempts in flight in between, so their slots do not sit idle.
    await new Promise<void>((r) => setImmediate(r));
    // An ordered delivery goes when it is its key's turn; until then it waits here behind the
    // head this process runs, or is stored to wait (ordering.ts).
    const ordering = this.d.ordering;
    if (job.kind === 'notification' && ordering && (job.ordering || matched?.settings?.ordering)) {
      // A first attempt's place among the waiting ones: its event's place in the inbound stream.
      const gate = await ordering.gate(job, matched?.settings, source.fromRetry ? undefined : { seq: source.msg.seq });
      if (gate.kind === 'held') return attemptDone(Promise.resolve('ack'));
      if (gate.kind === 'wait')
        return attemptDone(
          gate.turn.then((g) =>
            g.kind === 'send' ? this.proceedOrdered(g.job, source, matched, end) : ('ack' as const),
          ),
        );
      const letGo = (err: unknown) => this.letGo(gate.job, err);
      const done = await this.proceed(gate.job, source, matched, end).catch(letGo);
      return attemptDone(done.recording.catch(letGo));
    }
    return this.proceed(job, source, matched, end);
  }

  /** An ordered delivery whose turn came while it waited here: run and recorded. */
  private async proceedOrdered(
    job: NotificationJob,
    source: JobSource,
    matched: SubscriptionTarget | undefined,
    end: WaitingEnd | undefined,
  ): Promise<JobEnd> {
    try {
      return await (await this.proceed(job, source, matched, end)).recording;
    } catch (err) {
      return this.letGo(job, err);
    }
  }

  /**
   * The handling of an ordered delivery failed (its message is handled again): the deliveries of
   * its key waiting here behind it are stored to wait elsewhere.
   */
  private async letGo(job: NotificationJob, err: unknown): Promise<never> {
    await this.d.ordering?.letGo(job).catch(() => undefined);
    throw err;
  }

  /** Runs a job that may go now (up to the admission of its attempt). */
  private async proceed(
    job: NotificationJob,
    source: JobSource,
    matched?: SubscriptionTarget,
    end?: WaitingEnd,
  ): Promise<AttemptDone> {
    const waitMs = (job.notBefore ?? 0) - Date.now();
    if (!end && waitMs > 5) return attemptDone(this.defer(job, source, waitMs, null));

    let plan: Plan;
    try {
      plan = await planJob(job, this.d, matched);
    } catch (err) {
      if (!isLookupUnavailable(err)) throw err;
      this.d.logger.warn({ err: (err as Error).message, webhookId: job.webhookId }, 'lookup failed; job deferred');
      return attemptDone(this.defer(job, source, jitter(2000), 'lookup_unavailable'));
    }
    if (plan.kind === 'skip') {
      this.d.metrics.skipped.inc({ kind: job.kind, reason: plan.reason });
      this.d.logger.info({ webhookId: job.webhookId, reason: plan.reason }, 'delivery skipped');
      return attemptDone(this.stopWaiting(job, true).then(() => 'ack' as const));
    }
    if (plan.kind === 'end')
      return attemptDone(this.endWithoutAttempt(job, source, plan.record, plan.reason, plan.outcome));
    if (end) {
      this.d.metrics.ended.inc({ reason: end });
      const reason =
        end === 'held_too_long' && job.kind === 'notification'
          ? heldTooLongReason(job)
          : endReason(end, this.d.backlog.limits);
      return attemptDone(this.endWithoutAttempt(job, source, plan.record, reason));
    }
    // Past its subscription's rate: the job waits for its slot, held by JetStream (no attempt used).
    const rate = plan.settings?.rateLimit?.perSecond;
    const held = rate && plan.subscriptionId ? await this.d.throttle.hold(job, plan.subscriptionId, rate) : undefined;
    if (held) return attemptDone(this.defer(held, source, (held.notBefore ?? 0) - Date.now(), 'throttled'));

    // Admitted at once (a slot, or a place in the host's queue): the consumer goes on pulling while
    // the job waits; `recording` covers the wait, the attempt and its record.
    const sending = startAuthenticated(
      this.d.sender,
      {
        accountId: job.event.accountId,
        url: plan.url,
        body: plan.body,
        keys: plan.keys,
        webhookId: job.webhookId,
        headers: plan.headers,
        // The receiver's answer goes into the record (its first EXCERPT_BYTES; longer ones are cut).
        options: attemptOptions(EXCERPT_OPTIONS, plan.settings),
      },
      plan.settings,
      this.d.tokens,
    );
    return attemptDone(
      sending.attempted.then((a) => {
        if (a.kind === 'refused') return this.endWithoutAttempt(job, source, plan.record, a.reason);
        if (a.kind === 'wait') {
          const w = whileHostUnavailable(job, a.reason, a.delayMs, this.d.retry.giveUpAfterMs);
          return 'giveUp' in w
            ? this.endWithoutAttempt(job, source, plan.record, w.giveUp)
            : this.defer(job, source, w.waitMs, a.reason);
        }
        this.d.metrics.attemptDuration.observe({ kind: job.kind }, a.result.durationMs / 1000);
        const outcome = classifyAttempt(a.result, {
          attempt: job.attempt,
          subscriptionId: plan.subscriptionId,
          retry: this.d.retry.retry,
        });
        // A retry carries what this attempt sent, so it sends the same bytes.
        const attempted: Job =
          job.kind === 'notification' && plan.sent && job.sent !== plan.sent
            ? Object.assign({}, job, { sent: plan.sent })
            : job;
        const r = a.result;
        return this.finish(
          attempted,
          source,
          r.kind === 'response' && r.answer ? Object.assign({}, outcome, { response: r.answer }) : outcome,
          plan.record,
        );
      }),
    );
  }

  /** Records how the delivery ended without an HTTP attempt (status 0, no time spent). */
  private endWithoutAttempt(
    job: Job,
    source: JobSource,
    record: RecordBase,
    reason: string,
    outcome: 'failed' | 'cancelled' = 'failed',
  ): Promise<JobEnd> {
    return this.finish(job, source, { outcome, statusCode: 0, durationMs: 0, error: reason }, record);
  }

  /** Records the attempt, then publishes the retry if any. */
  private finish(job: Job, source: JobSource, a: Recorded, base: RecordBase): Promise<JobEnd> {
    const attempt = attemptRecord(job, base, a);
    this.d.metrics.deliveries.inc({ kind: job.kind, outcome: a.outcome });
    if (a.outcome !== 'succeeded')
      this.d.logger.info(
        { webhookId: job.webhookId, attempt: job.attempt, outcome: a.outcome, error: a.error, retryInMs: a.retryInMs },
        a.outcome === 'cancelled' ? 'delivery not retried' : 'delivery attempt failed',
      );
    return this.d.inFlight.keepAlive(source.msg, async () => {
      await this.d.recorder.record(attempt, a.disable);
      if (a.outcome === 'retrying' && a.retryInMs !== undefined) {
        if (job.kind === 'notification') await this.d.ordering?.letGo(job);
        const held = job.kind === 'notification' && this.d.ordering ? await this.d.ordering.holding(job) : job;
        const next = this.waiting({
          ...held,
          attempt: job.attempt + 1,
          notBefore: Date.now() + this.delayOf(held, a.retryInMs),
        });
        await this.d.js.publish(JOB_SUBJECTS.retry, JSON.stringify(next.job), {
          msgID: `${job.webhookId}:r${job.attempt}:${sourceKey(source)}`,
        });
        await this.startedWaiting(next);
        this.d.metrics.retriesScheduled.inc({ kind: job.kind });
      } else await this.stopWaiting(job, a.outcome !== 'succeeded');
      return 'ack' as const;
    });
  }

  /**
   * Puts a job back without an attempt. A retry job is held by JetStream (nak with delay), or parked
   * when its target has its share of the retry window; a first attempt becomes a retry job, so
   * waiting jobs never hold up first attempts to other targets.
   */
  private async defer(job: Job, source: JobSource, delayMs: number, reason: DeferReason | null): Promise<JobEnd> {
    if (reason) this.d.metrics.deferred.inc({ kind: job.kind, reason });
    // An ordered head waits in JetStream: the deliveries of its key waiting here are stored too.
    if (job.kind === 'notification') await this.d.ordering?.letGo(job);
    const delay = Math.max(1, Math.round(this.delayOf(job, delayMs)));
    const deferred: Job = { ...job, notBefore: Date.now() + delay };
    // Waiting for its rate-limit slot: held in the throttled consumer's window, never parked.
    const forSlot = deferred.kind === 'notification' && waitsForSlot(deferred);
    if (forSlot && source.fromRetry && source.msg.subject === JOB_SUBJECTS.throttled) {
      source.msg.nak(Math.min(delay, this.lookAgainMs(job)));
      return Promise.resolve('nak');
    }
    if (source.fromRetry && !forSlot) {
      const key = targetKey(job);
      if (this.d.shares.hold(key, source.msg.seq, deferred.notBefore!)) {
        source.msg.nak(Math.min(delay, this.lookAgainMs(job)));
        return Promise.resolve('nak');
      }
      // The target's share of the retry window is full: the job waits outside it, parked.
      this.d.metrics.parked.inc({ kind: job.kind });
      return this.d.inFlight.keepAlive(source.msg, () =>
        this.d.js
          .publish(JOB_SUBJECTS.parked, JSON.stringify(deferred), {
            msgID: `${job.webhookId}:p${job.attempt}:${sourceKey(source)}`,
          })
          .then(() => 'ack' as const),
      );
    }
    const waiting = this.waiting(deferred);
    const publish = () =>
      this.d.js
        .publish(forSlot ? JOB_SUBJECTS.throttled : JOB_SUBJECTS.retry, JSON.stringify(waiting.job), {
          msgID: `${job.webhookId}:${forSlot ? 't' : 'd'}${job.attempt}:${sourceKey(source)}`,
        })
        .then(() => this.startedWaiting(waiting))
        .then(() => 'ack' as const);
    // A retry job that now waits for its slot moves to the throttled line (acknowledged once moved).
    return source.fromRetry ? this.d.inFlight.keepAlive(source.msg, publish) : publish();
  }

  /**
   * How long a waiting job is held before it is looked at again: at least every recheck period, and
   * when it expires (not sooner than a second from now, unless it is due sooner: an expired job
   * whose lookup fails waits too).
   */
  private lookAgainMs(job: Job): number {
    return Math.max(1000, Math.min(this.d.backlogRecheckMs, this.d.backlog.expiresInMs(job)));
  }

  /** The job as it waits: a notification is marked with its place in its account's backlog, once. */
  private waiting(job: Job): { job: Job; added?: WaitingMark } {
    if (job.kind !== 'notification' || job.waiting) return { job };
    const mark = this.d.backlog.mark(job, Buffer.byteLength(JSON.stringify(job)) + MARK_BYTES);
    return { job: Object.assign({}, job, { waiting: mark }), added: mark };
  }

  /** Counts a job that started waiting, once it is published. */
  private startedWaiting(w: { job: Job; added?: WaitingMark }): Promise<void> {
    if (!w.added || w.job.kind !== 'notification') return Promise.resolve();
    return this.d.backlog.add(w.job.event.accountId, w.added);
  }

  /** An ordered delivery waits at most until its hold ends. */
  private delayOf(job: Job, delayMs: number): number {
    return job.kind === 'notification' && this.d.ordering ? this.d.ordering.capDelay(job, delayMs) : delayMs;
  }

  /**
   * A delivery ended (it succeeded, failed or was dropped): out of its account's backlog if it
   * waited, and out of its key's line if ordered (the next one is woken).
   */
  private async stopWaiting(job: Job, failed: boolean): Promise<void> {
    if (job.kind !== 'notification') return;
    if (job.ordering && this.d.ordering) await this.d.ordering.release(job, failed);
    if (job.waiting) await this.d.backlog.remove(job.event.accountId, job.waiting);
  }
}

/** What the `waiting` mark adds to a job's JSON, about. */
const MARK_BYTES = 48;

/** Identifies the message a successor job is published from, so a re-delivered source re-publishes the same id (deduplicated). */
function sourceKey(source: JobSource): string {
  return `${source.fromRetry ? 'j' : 'e'}${source.msg.seq}`;
}
