// One delivery job -> one signed HTTP attempt, recorded. A first attempt runs straight from the
// inbound event (no extra hop); a failed attempt that may be retried, and a job that must wait
// (breaker open, host busy, lookup unavailable), becomes a job on the retry subject with a
// `notBefore` time, held by JetStream until due. The message that carried the job (the inbound
// event, or the retry job) is acknowledged only after the attempt record is stored and the
// successor job, if any, is published: a crash at any point re-delivers, it never loses.
//
// The worker only runs the steps: plan.ts says where and what to send, the signed sender makes the
// attempt, the job's policy (policies/) says what follows, in-flight.ts tracks the recording.
import type { JetStreamClient, JsMsg, Logger } from '@switchboard/platform';
import { parseJob, type Job } from '../jobs';
import { JOB_SUBJECTS } from '../streams';
import { isLookupUnavailable, type Lookups, type SubscriptionTarget } from '../lookup/lookups';
import type { DispatcherMetrics } from '../metrics';
import type { AttemptRecorder, DisableRequest } from '../recording/attempt-recorder';
import { terminate } from '../events/terminate';
import type { InFlight } from './in-flight';
import { attemptRecord, type AttemptFields, type RecordBase } from '../recording/attempt-record';
import { planJob, type Plan } from './plan';
import { jitter } from './retry';
import type { DeliveryPolicies } from './policies/policy';
import type { HostWait, SignedSender } from './signed-sender';

export interface DeliveryWorkerDeps {
  js: JetStreamClient;
  lookups: Lookups;
  sender: SignedSender;
  policies: DeliveryPolicies;
  recorder: AttemptRecorder;
  inFlight: InFlight;
  metrics: DispatcherMetrics;
  /** HMAC keys that sign session POSTs. */
  sessionKeys: Buffer[];
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

type DeferReason = HostWait | 'lookup_unavailable';

/** How an attempt is recorded (an outcome reached without an HTTP attempt has status 0 and no time). */
interface Recorded extends AttemptFields {
  /** Delay before the next attempt, published as a retry job when the outcome is `retrying`. */
  retryInMs?: number;
  disable?: DisableRequest;
}

const attemptDone = (recording: Promise<JobEnd>): AttemptDone => ({ recording });

export class DeliveryWorker {
  constructor(private readonly d: DeliveryWorkerDeps) {}

  /** Handler of the retry consumer. */
  async handleRetry(msg: JsMsg): Promise<void> {
    let job: Job;
    try {
      job = parseJob(msg.data);
    } catch (err) {
      return terminate(msg, `invalid delivery job: ${(err as Error).message}`, this.d);
    }
    const { recording } = await this.run(job, { msg, fromRetry: true });
    return this.d.inFlight.track(
      msg,
      recording.then((end) => {
        if (end === 'ack') msg.ack();
      }),
    );
  }

  /**
   * Runs one job up to the end of its HTTP attempt. `matched`: the subscription fan-out matched for
   * a first attempt (see planJob).
   */
  async run(job: Job, source: JobSource, matched?: SubscriptionTarget): Promise<AttemptDone> {
    const waitMs = (job.notBefore ?? 0) - Date.now();
    if (waitMs > 5) return attemptDone(this.defer(job, source, waitMs, null));

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
      return attemptDone(Promise.resolve('ack'));
    }
    if (plan.kind === 'end') return attemptDone(this.endWithoutAttempt(job, source, plan.record, plan.reason, plan.outcome));

    const policy = this.d.policies[job.kind];
    const a = await this.d.sender.attempt({ url: plan.url, body: plan.body, keys: plan.keys, webhookId: job.webhookId, headers: plan.headers });
    if (a.kind === 'refused') return attemptDone(this.endWithoutAttempt(job, source, plan.record, a.reason));
    if (a.kind === 'wait') {
      const w = policy.whileHostUnavailable(job, a.reason, a.delayMs);
      return attemptDone('giveUp' in w ? this.endWithoutAttempt(job, source, plan.record, w.giveUp) : this.defer(job, source, w.waitMs, a.reason));
    }
    this.d.metrics.attemptDuration.observe({ kind: job.kind }, a.result.durationMs / 1000);
    const outcome = policy.afterAttempt(job, a.result, plan.subscriptionId);
    // A retry carries what this attempt sent, so it sends the same bytes.
    const attempted: Job = job.kind === 'notification' && plan.sent ? { ...job, sent: plan.sent } : job;
    return attemptDone(this.finish(attempted, source, outcome, plan.record));
  }

  /** Records how the delivery ended without an HTTP attempt (status 0, no time spent). */
  private endWithoutAttempt(job: Job, source: JobSource, record: RecordBase, reason: string, outcome: 'failed' | 'cancelled' = 'failed'): Promise<JobEnd> {
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
        const next: Job = { ...job, attempt: job.attempt + 1, notBefore: Date.now() + a.retryInMs };
        await this.d.js.publish(JOB_SUBJECTS.retry, JSON.stringify(next), { msgID: `${job.webhookId}:r${job.attempt}:${sourceKey(source)}` });
        this.d.metrics.retriesScheduled.inc({ kind: job.kind });
      }
      return 'ack' as const;
    });
  }

  /**
   * Puts a job back without an attempt. A retry job is held by JetStream (nak with delay); a first
   * attempt becomes a retry job, so waiting jobs never hold up first attempts to other targets.
   */
  private defer(job: Job, source: JobSource, delayMs: number, reason: DeferReason | null): Promise<JobEnd> {
    if (reason) this.d.metrics.deferred.inc({ kind: job.kind, reason });
    const delay = Math.max(1, Math.round(delayMs));
    if (source.fromRetry) {
      source.msg.nak(delay);
      return Promise.resolve('nak');
    }
    const deferred: Job = { ...job, notBefore: Date.now() + delay };
    return this.d.js.publish(JOB_SUBJECTS.retry, JSON.stringify(deferred), { msgID: `${job.webhookId}:d${job.attempt}:${sourceKey(source)}` }).then(() => 'ack' as const);
  }
}

/** Identifies the message a successor job is published from, so a re-delivered source re-publishes the same id (deduplicated). */
function sourceKey(source: JobSource): string {
  return `${source.fromRetry ? 'j' : 'e'}${source.msg.seq}`;
}
