// One delivery job -> one signed HTTP attempt, recorded. A first attempt runs straight from the
// inbound event (no extra hop); a failed attempt that may be retried, and a job that must wait
// (breaker open, host busy, lookup unavailable), becomes a job on the retry subject with a
// `notBefore` time, held by JetStream until due. The message that carried the job (the inbound
// event, or the retry job) is acknowledged only after the attempt record is stored and the
// successor job, if any, is published: a crash at any point re-delivers, it never loses.
import type { JetStreamClient, JsMsg, Logger } from '@switchboard/platform';
import type { Delivery } from '@switchboard/proto';
import { JOB_SUBJECTS, parseJob, type Job } from '../jobs';
import type { Lookups } from '../lookup/lookups';
import type { DispatcherMetrics, Outcome } from '../metrics';
import type { AttemptRecorder, DisableRequest } from '../recording/attempt-recorder';
import { buildNotificationBody, buildSessionBody, sessionChannel } from './bodies';
import { BreakerMap, HostFailure } from './breakers';
import type { HostLimiter } from './host-limiter';
import type { AttemptResult, HttpSender } from './http-sender';
import { nextDelay, parseRetryAfter, type RetryPolicy } from './retry';
import { signatureHeaders } from './signing';
import { terminate } from '../events/terminate';
import { EVENT_OF_SUBJECT } from '../events/schemas';

export interface DeliveryWorkerDeps {
  js: JetStreamClient;
  lookups: Lookups;
  sender: HttpSender;
  breakers: BreakerMap;
  limiter: HostLimiter;
  recorder: AttemptRecorder;
  metrics: DispatcherMetrics;
  policy: RetryPolicy;
  /** HMAC keys that sign session POSTs. */
  sessionKeys: Buffer[];
  /** ack_wait of the consumers; in-progress signals are sent well within it. */
  ackWaitMs: number;
  /** Age of an event after which a delivery that keeps waiting for its host is recorded as failed. */
  giveUpAfterMs: number;
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

/** What the job resolved to: an HTTP attempt, an outcome recorded without one, or nothing to do. */
type Plan =
  | { kind: 'send'; url: string; body: string; keys: Buffer[]; record: RecordBase; subscriptionId: string | null; sent?: SentFields }
  | { kind: 'end'; outcome: 'failed' | 'cancelled'; reason: string; record: RecordBase }
  | { kind: 'skip'; reason: string };

/** What of the subscription a notification body carries; fixed at the first attempt (jobs.ts). */
type SentFields = { name: string | null; payload: unknown };

type RecordBase = Pick<Delivery, 'kind' | 'subscriptionId' | 'applicationId' | 'accountId' | 'event' | 'targetUrl'>;

type DeferReason = 'breaker_open' | 'host_busy' | 'lookup_unavailable';

class Unavailable extends Error {}

/** Jobs whose record/acknowledgement may be pending at once before new work waits. */
const MAX_FINISHING = 4096;

const jitter = (ms: number) => Math.round(ms * (0.75 + Math.random() * 0.5));

export class DeliveryWorker {
  /** Tails of jobs whose attempt is done and whose record / acknowledgement is under way. */
  private readonly finishing = new Set<Promise<unknown>>();
  /** Callers of track() waiting for the pile to shrink, woken one per finished tail. */
  private readonly waiting: Array<() => void> = [];
  /** Messages whose jobs are finishing: since when, and how many jobs. One ticker keeps them alive. */
  private readonly working = new Map<JsMsg, { since: number; jobs: number }>();
  private readonly ticker: NodeJS.Timeout;

  constructor(private readonly d: DeliveryWorkerDeps) {
    const every = Math.max(1000, Math.floor(d.ackWaitMs / 3));
    this.ticker = setInterval(() => {
      const now = Date.now();
      for (const [msg, w] of this.working) if (now - w.since >= every) msg.working();
    }, every);
    this.ticker.unref();
  }

  /**
   * Runs `tail` (record, then acknowledge) on its own so the caller's concurrency slot is free for
   * the next attempt; JetStream's max_ack_pending and MAX_FINISHING bound how many pile up.
   * Resolves at once, or when the pile is full, once one of them ended.
   */
  track(msg: JsMsg, tail: Promise<unknown>): Promise<void> {
    const t: Promise<unknown> = tail
      .catch((err: unknown) => {
        this.d.logger.error({ err, subject: msg.subject, seq: msg.seq }, 'finishing a delivery failed; the message will be re-delivered');
        msg.nak(1000);
      })
      .finally(() => {
        this.finishing.delete(t);
        this.waiting.shift()?.();
      });
    this.finishing.add(t);
    return this.finishing.size >= MAX_FINISHING ? new Promise<void>((r) => this.waiting.push(r)) : Promise.resolve();
  }

  /** Waits until every started job is recorded and acknowledged (shutdown). */
  async drain(): Promise<void> {
    while (this.finishing.size > 0) await Promise.allSettled([...this.finishing]);
    clearInterval(this.ticker);
  }

  /** Handler of the retry consumer. */
  async handleRetry(msg: JsMsg): Promise<void> {
    let job: Job;
    try {
      job = parseJob(msg.data);
    } catch (err) {
      return terminate(msg, `invalid delivery job: ${(err as Error).message}`, this.d);
    }
    const { tail } = await this.run(job, { msg, fromRetry: true });
    return this.track(
      msg,
      tail.then((end) => {
        if (end === 'ack') msg.ack();
      }),
    );
  }

  /**
   * Runs one job up to the end of its HTTP attempt. Resolves with the tail: a promise that
   * settles once the attempt is recorded and any successor job published (then the source
   * message may be acknowledged). Wrapped in an object so awaiting run() does not await the tail.
   */
  async run(job: Job, source: JobSource): Promise<{ tail: Promise<JobEnd> }> {
    const waitMs = (job.notBefore ?? 0) - Date.now();
    if (waitMs > 5) return tailOf(this.defer(job, source, waitMs, null));

    let plan: Plan;
    try {
      plan = await this.plan(job);
    } catch (err) {
      if (!(err instanceof Unavailable)) throw err;
      return tailOf(this.defer(job, source, jitter(2000), 'lookup_unavailable'));
    }
    if (plan.kind === 'skip') {
      this.d.metrics.skipped.inc({ kind: job.kind, reason: plan.reason });
      this.d.logger.info({ webhookId: job.webhookId, reason: plan.reason }, 'delivery skipped');
      return tailOf(Promise.resolve('ack'));
    }
    if (plan.kind === 'end') return tailOf(this.endWithoutAttempt(job, source, plan.record, plan.reason, plan.outcome));
    const target = this.d.sender.target(plan.url);
    if ('refusal' in target) return tailOf(this.endWithoutAttempt(job, source, plan.record, target.refusal));

    const host = target.host;
    const open = this.d.breakers.waitFor(host);
    if (open > 0) return tailOf(this.waitOrGiveUp(job, source, plan.record, open + Math.round(Math.random() * 1000), 'breaker_open'));
    const release = await this.d.limiter.acquire(host);
    if (!release) return tailOf(this.waitOrGiveUp(job, source, plan.record, jitter(1500), 'host_busy'));

    let fired;
    try {
      fired = await this.d.breakers.fire(host, async () => {
        const r = await this.d.sender.post(plan.url, plan.body, { ...signatureHeaders(plan.keys, job.webhookId, plan.body) }, target);
        if (isHostFailure(r)) throw new HostFailure(r);
        return r;
      });
    } finally {
      release();
    }
    if (fired.rejected) return tailOf(this.waitOrGiveUp(job, source, plan.record, fired.retryInMs + Math.round(Math.random() * 1000), 'breaker_open'));
    const r = fired.value;
    this.d.metrics.attemptDuration.observe({ kind: job.kind }, r.durationMs / 1000);

    let outcome: Outcome;
    let error: string | undefined;
    let statusCode = 0;
    let retryAfterMs: number | undefined;
    let disable: DisableRequest | undefined;
    let retryable = false;
    if (r.kind === 'response') {
      statusCode = r.status;
      if (r.status >= 200 && r.status < 300) outcome = 'succeeded';
      else if (r.status === 410) {
        outcome = 'failed';
        error = 'HTTP 410 Gone: the target asked to stop';
        if (plan.subscriptionId) {
          error = 'HTTP 410 Gone: subscription disabled';
          disable = { subscriptionId: plan.subscriptionId, reason: `target answered 410 Gone at ${new Date().toISOString()}` };
        }
      } else {
        outcome = 'retrying';
        retryable = true;
        error =
          r.status >= 300 && r.status < 400 ? `HTTP ${r.status}: redirects are not followed${r.location ? ` (to ${r.location.slice(0, 200)})` : ''}` : `HTTP ${r.status}`;
        retryAfterMs = parseRetryAfter(r.retryAfter);
      }
    } else {
      error = r.error;
      if (r.refused) outcome = 'failed';
      else {
        outcome = 'retrying';
        retryable = true;
      }
    }
    let delay: number | undefined;
    if (retryable) {
      delay = nextDelay(this.d.policy, job.attempt, retryAfterMs);
      if (delay === undefined) {
        outcome = 'failed';
        error = `${error}; gave up after ${job.attempt} attempt${job.attempt === 1 ? '' : 's'}`;
      }
    }
    // A retry carries what this attempt sent, so it sends the same bytes.
    const attempted: Job = job.kind === 'notification' && plan.sent ? { ...job, sent: plan.sent } : job;
    return tailOf(this.finish(attempted, source, { outcome, statusCode, durationMs: r.durationMs, error }, plan.record, disable, delay));
  }

  /**
   * A job waiting for its host spends no attempt: past its age limit it is recorded as failed, so
   * every event is delivered or recorded before JetStream's retention could drop it.
   */
  private waitOrGiveUp(job: Job, source: JobSource, record: RecordBase, delayMs: number, reason: 'breaker_open' | 'host_busy'): Promise<JobEnd> {
    const received = Date.parse(job.receivedAt);
    if (!(Number.isFinite(received) && Date.now() - received > this.d.giveUpAfterMs)) return this.defer(job, source, delayMs, reason);
    const why = reason === 'breaker_open' ? 'the host stayed unavailable (circuit breaker open)' : 'the host stayed busy';
    return this.endWithoutAttempt(job, source, record, `gave up: ${why} past the delivery window`);
  }

  /** Records how the delivery ended without an HTTP attempt (status 0, no time spent). */
  private endWithoutAttempt(job: Job, source: JobSource, record: RecordBase, reason: string, outcome: 'failed' | 'cancelled' = 'failed'): Promise<JobEnd> {
    return this.finish(job, source, { outcome, statusCode: 0, durationMs: 0, error: reason }, record);
  }

  /** Where and what to send, from the current application or subscription. */
  private async plan(job: Job): Promise<Plan> {
    try {
      if (job.kind === 'session') {
        const e = job.event;
        const app = await this.d.lookups.application(e.applicationId);
        const channel = sessionChannel(e.session);
        const accountId = e.session.accountId ?? app?.accountId ?? '0';
        const record: RecordBase = { kind: 'session', subscriptionId: '', applicationId: e.applicationId, accountId, event: 'session', targetUrl: '' };
        if (!app) return { kind: 'end', outcome: 'failed', reason: `application ${e.applicationId} not found`, record };
        const url = channel === 'VOICE' ? app.voiceUrl : app.messagingUrl;
        if (!url) return { kind: 'end', outcome: 'failed', reason: `application has no ${channel === 'VOICE' ? 'voiceUrl' : 'messagingUrl'} for ${channel} sessions`, record };
        const body = JSON.stringify(buildSessionBody(e, app.accountId, new Date(job.receivedAt)));
        return { kind: 'send', url, body, keys: this.d.sessionKeys, record: { ...record, targetUrl: url }, subscriptionId: null };
      }
      const e = job.event;
      const webhookEvent = EVENT_OF_SUBJECT[job.subject];
      const subs = await this.d.lookups.subscriptions({ accountId: e.accountId, applicationId: e.applicationId, event: webhookEvent, resource: e.resource });
      const sub = subs.find((s) => s.id === job.subscriptionId);
      if (!sub) {
        // A retry whose subscription was disabled, or edited so the event no longer matches: its
        // delivery log ends with why, instead of with an attempt that says "retrying". A deleted
        // subscription's log is gone with it: nothing to record.
        const still = job.attempt > 1 ? await this.d.lookups.currentSubscription(e.accountId, job.subscriptionId) : null;
        if (!still) return { kind: 'skip', reason: 'subscription_gone' };
        const reason = still.enabled ? 'not retried: the subscription no longer matches this event' : 'not retried: the subscription is disabled';
        const record: RecordBase = { kind: 'notification', subscriptionId: job.subscriptionId, applicationId: still.applicationId ?? e.applicationId ?? '', accountId: e.accountId, event: webhookEvent, targetUrl: still.targetUrl };
        return { kind: 'end', outcome: 'cancelled', reason, record };
      }
      const sent: SentFields = job.sent ?? { name: sub.name, payload: sub.payload ?? null };
      const body = JSON.stringify(buildNotificationBody(webhookEvent, e, sent));
      return {
        kind: 'send',
        url: sub.targetUrl,
        body,
        keys: sub.keys,
        subscriptionId: sub.id,
        sent,
        record: { kind: 'notification', subscriptionId: sub.id, applicationId: e.applicationId ?? '', accountId: e.accountId, event: webhookEvent, targetUrl: sub.targetUrl },
      };
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'unavailable' || code === 'internal') {
        this.d.logger.warn({ err: (err as Error).message, webhookId: job.webhookId }, 'lookup failed; job deferred');
        throw new Unavailable();
      }
      throw err;
    }
  }

  /** Records the attempt, then publishes the retry if any. Returns the tail (see run). */
  private finish(
    job: Job,
    source: JobSource,
    a: { outcome: Outcome; statusCode: number; durationMs: number; error: string | undefined },
    base: RecordBase,
    disable?: DisableRequest,
    retryDelayMs?: number,
  ): Promise<JobEnd> {
    const attempt: Delivery = {
      ...base,
      messageId: job.webhookId,
      attempt: job.attempt,
      statusCode: a.statusCode,
      durationMs: Math.round(a.durationMs),
      outcome: a.outcome,
      createdAt: new Date().toISOString(),
      ...(a.error ? { error: a.error.slice(0, 1000) } : {}),
    };
    this.d.metrics.deliveries.inc({ kind: job.kind, outcome: a.outcome });
    if (a.outcome !== 'succeeded')
      this.d.logger.info(
        { webhookId: job.webhookId, attempt: job.attempt, outcome: a.outcome, error: a.error, retryInMs: retryDelayMs },
        a.outcome === 'cancelled' ? 'delivery not retried' : 'delivery attempt failed',
      );
    return this.keepAlive(source.msg, async () => {
      await this.d.recorder.record(attempt, disable);
      if (a.outcome === 'retrying' && retryDelayMs !== undefined) {
        const next: Job = { ...job, attempt: job.attempt + 1, notBefore: Date.now() + retryDelayMs };
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

  /** Tells JetStream the message is still being worked on while `fn` runs (records may wait for the webhooks service). */
  private async keepAlive<T>(msg: JsMsg, fn: () => Promise<T>): Promise<T> {
    const w = this.working.get(msg);
    if (w) w.jobs++;
    else this.working.set(msg, { since: Date.now(), jobs: 1 });
    try {
      return await fn();
    } finally {
      const cur = this.working.get(msg);
      if (cur && --cur.jobs === 0) this.working.delete(msg);
    }
  }
}

const tailOf = (tail: Promise<JobEnd>) => ({ tail });

/** Identifies the message a successor job is published from, so a re-delivered source re-publishes the same id (deduplicated). */
function sourceKey(source: JobSource): string {
  return `${source.fromRetry ? 'j' : 'e'}${source.msg.seq}`;
}

/** Outcomes that say the host is unwell (they count toward opening its breaker). */
export function isHostFailure(r: AttemptResult): boolean {
  if (r.kind === 'error') return !r.refused;
  return r.status >= 500 || r.status === 429;
}
