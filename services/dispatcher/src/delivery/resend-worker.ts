// Resends (one delivery, or the deliveries of a recovery task): jobs on the deliveries stream, put
// there by the webhooks service, each the stored body of a message with its webhook-id. A resend is
// one attempt through the normal path (signed sender: SSRF guard, host limiter, circuit breaker),
// signed afresh with the target's current secrets, recorded under the id the job carries. While
// the host cannot take it, the job waits in JetStream (nak with delay) without spending its
// attempt, up to the delivery window; it is acknowledged only once its attempt is recorded, so a
// dispatcher that stops or crashes leaves it to the next one.
import type { JsMsg } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import { startAuthenticated, type TokenCache } from './endpoint-auth.ts';
import { attemptOptions, type SubscriptionSettings } from './subscription-settings.ts';
import { resendJobSchema, type ResendJob } from '@switchboard/contracts';
import { terminate } from '../events/terminate.ts';
import { isLookupUnavailable, type Lookups } from '../lookup/lookups.ts';
import type { DispatcherMetrics } from '../metrics.ts';
import { attemptRecord, EXCERPT_BYTES, type AttemptFields, type RecordBase } from '../recording/attempt-record.ts';
import type { AttemptRecorder, DisableRequest } from '../recording/attempt-recorder.ts';
import { sessionChannel } from './bodies.ts';
import type { InFlight } from './in-flight.ts';
import { jitter } from './retry.ts';
import type { SignedSender } from './signed-sender.ts';
import { classifyAttempt } from './outcome.ts';
import { notSentReason } from './single-attempt.ts';
import { resendKey, type Ordering } from './ordering.ts';

export interface ResendDeps {
  lookups: Lookups;
  sender: SignedSender;
  /** OAuth2 tokens of subscriptions with `auth` (endpoint-auth.ts). */
  tokens?: TokenCache;
  recorder: AttemptRecorder;
  inFlight: InFlight;
  metrics: DispatcherMetrics;
  logger: Logger;
  /** Ordering by key: a resend of an ordered subscription takes its turn in its key's line (ordering.ts). */
  ordering?: Ordering;
  /** A resend still waiting for its host this long after it was asked for is recorded as failed. */
  giveUpAfterMs: number;
}

type Target =
  | {
      kind: 'send';
      url: string;
      keys: Buffer[];
      headers?: Record<string, string>;
      settings?: SubscriptionSettings;
      base: RecordBase;
    }
  | { kind: 'end'; error: string; base: RecordBase; settings?: SubscriptionSettings }
  | { kind: 'skip' };

/** A resend's answer, a notification's or an application's, is read up to EXCERPT_BYTES for its record. */
const RESEND_OPTIONS = { readBodyUpTo: EXCERPT_BYTES } as const;

/** A resend's place among those that arrived: `ready` once the one before it has joined its line (or needs none). */
interface Place {
  ready: Promise<void>;
  leave(): void;
}

/** Lets resends join their lines in the order they arrived. */
class InOrder {
  private last: Promise<void> = Promise.resolve();

  enter(): Place {
    const ready = this.last;
    let leave!: () => void;
    this.last = new Promise<void>((r) => (leave = r));
    return { ready, leave };
  }
}

export class ResendWorker {
  private readonly inOrder = new InOrder();

  constructor(private readonly d: ResendDeps) {}

  /** Handler of the resends consumer. */
  async handle(msg: JsMsg): Promise<void> {
    // Resends of an ordered subscription join their key's line in the order they arrive here,
    // whichever of their lookups answers first.
    const place = this.inOrder.enter();
    try {
      return await this.handleInOrder(msg, place);
    } finally {
      place.leave();
    }
  }

  private async handleInOrder(msg: JsMsg, place: Place): Promise<void> {
    let job: ResendJob;
    try {
      job = resendJobSchema.parse(JSON.parse(Buffer.from(msg.data).toString('utf8')));
    } catch (err) {
      return terminate(msg, `invalid resend job: ${(err as Error).message}`, this.d);
    }
    let target: Target;
    try {
      target = await this.target(job);
    } catch (err) {
      if (!isLookupUnavailable(err)) throw err;
      this.d.logger.warn({ err: (err as Error).message, deliveryId: job.deliveryId }, 'lookup failed; resend deferred');
      msg.nak(jitter(2000));
      return;
    }
    if (target.kind === 'skip') {
      this.d.metrics.skipped.inc({ kind: job.target.kind, reason: 'subscription_gone' });
      msg.ack();
      return;
    }
    if (target.kind === 'end') {
      // Not sent: out of its key's line if it waited in one (a woken resend of a cancelled recovery).
      const ordered = this.keyOf(job, target.settings);
      return this.d.inFlight.track(
        msg,
        this.finish(
          msg,
          job,
          target.base,
          { outcome: 'cancelled', statusCode: 0, durationMs: 0, error: target.error },
          undefined,
          ordered,
        ),
      );
    }
    // A resend of an ordered subscription goes when it is its key's turn: a recovery's resends of
    // one key go one after the other, in their original order, between the key's other deliveries.
    const ordering = this.d.ordering;
    if (ordering && job.target.kind === 'notification' && target.settings?.ordering) {
      await place.ready;
      // Its first write is sent before the next resend's (one connection: JetStream takes them in order).
      const joining = ordering.gateResend(job, target.settings.ordering, msg.seq);
      place.leave();
      const gate = await joining;
      if (gate.kind === 'held') return msg.ack();
      if (gate.kind === 'wait')
        return this.d.inFlight.track(
          msg,
          gate.turn.then((g) => (g.kind === 'send' ? this.send(msg, job, target, g.ordered) : msg.ack())),
        );
      if (gate.kind === 'send') return this.d.inFlight.track(msg, this.send(msg, job, target, gate.ordered));
    }
    return this.d.inFlight.track(msg, this.send(msg, job, target));
  }

  /** The key of a resend of an ordered subscription, for its end (undefined: not ordered, or no key). */
  private keyOf(job: ResendJob, settings: SubscriptionSettings | undefined): { k: string } | undefined {
    if (!this.d.ordering || !settings?.ordering) return undefined;
    const k = resendKey(job, settings.ordering.key);
    return k === undefined ? undefined : { k };
  }

  /** Sends the resend (its turn's `webhook-sequence` when ordered) and records it. */
  private send(
    msg: JsMsg,
    job: ResendJob,
    target: Extract<Target, { kind: 'send' }>,
    ordered?: { k: string; seq: number },
  ): Promise<void> {
    const { base } = target;
    const headers = ordered
      ? Object.assign({}, target.headers, { 'webhook-sequence': String(ordered.seq) })
      : target.headers;
    // Admitted in the order the jobs arrive (FIFO per host): a recovery goes out in its original order.
    const sending = startAuthenticated(
      this.d.sender,
      {
        accountId: job.accountId,
        url: target.url,
        body: job.body,
        keys: target.keys,
        webhookId: job.webhookId,
        headers,
        // The receiver's answer goes into the record (its first EXCERPT_BYTES), as for every attempt.
        options: attemptOptions(RESEND_OPTIONS, target.settings),
      },
      target.settings,
      this.d.tokens,
    );
    return sending.attempted.then(async (a) => {
      if (a.kind === 'refused')
        return this.finish(
          msg,
          job,
          base,
          { outcome: 'failed', statusCode: 0, durationMs: 0, error: a.reason },
          undefined,
          ordered,
        );
      if (a.kind === 'wait') {
        if (Date.now() - Date.parse(job.queuedAt) > this.d.giveUpAfterMs)
          return this.finish(
            msg,
            job,
            base,
            {
              outcome: 'failed',
              statusCode: 0,
              durationMs: 0,
              error: `gave up: ${notSentReason(a.reason)} past the delivery window`,
            },
            undefined,
            ordered,
          );
        this.d.metrics.deferred.inc({ kind: job.target.kind, reason: a.reason });
        // It waits in JetStream, still its key's head: the resends waiting here behind it are stored.
        if (ordered) await this.d.ordering?.letGoResend(job, ordered.k);
        msg.nak(Math.max(1, a.delayMs));
        return;
      }
      this.d.metrics.attemptDuration.observe({ kind: job.target.kind }, a.result.durationMs / 1000);
      const judged = classifyAttempt(a.result, {
        attempt: 1,
        subscriptionId: job.target.kind === 'notification' ? job.target.subscriptionId : null,
        retry: null,
      });
      const r = a.result;
      return this.finish(
        msg,
        job,
        base,
        r.kind === 'response' && r.answer ? Object.assign({}, judged, { response: r.answer }) : judged,
        judged.disable,
        ordered,
      );
    });
  }

  /** Where the resend goes now, signed with which keys; or why it goes nowhere. */
  private async target(job: ResendJob): Promise<Target> {
    const common = { id: job.deliveryId, trigger: job.trigger, accountId: job.accountId, event: job.event };
    if (job.target.kind === 'notification') {
      const sub = await this.d.lookups.subscriptionTarget(job.accountId, job.target.subscriptionId);
      // A deleted subscription's records are gone with it: nothing to record.
      if (!sub) return { kind: 'skip' };
      const base: RecordBase = {
        ...common,
        subscriptionId: sub.id,
        applicationId: sub.applicationId ?? '',
        targetUrl: sub.targetUrl,
      };
      const settings = sub.settings;
      if (!sub.enabled) return { kind: 'end', error: 'not resent: the subscription is disabled', base, settings };
      if (job.taskId && sub.cancelledRecoveries?.includes(job.taskId))
        return { kind: 'end', error: 'not resent: the recovery was cancelled', base, settings };
      return { kind: 'send', url: sub.targetUrl, keys: sub.keys, headers: sub.headers, settings: sub.settings, base };
    }
    const applicationId = job.target.applicationId;
    const app = await this.d.lookups.application(applicationId);
    const base: RecordBase = { ...common, subscriptionId: '', applicationId, targetUrl: '' };
    if (!app) return { kind: 'end', error: 'not resent: the application no longer exists', base };
    let channel: 'VOICE' | 'TEXT' = 'VOICE';
    try {
      channel = sessionChannel((JSON.parse(job.body) as { session: Parameters<typeof sessionChannel>[0] }).session);
    } catch {
      // a stored session body is always JSON; VOICE as a last resort
    }
    const url =
      channel === 'VOICE' ? (app.voiceUrl ?? app.voiceFallbackUrl) : (app.messagingUrl ?? app.messagingFallbackUrl);
    if (!url) return { kind: 'end', error: `not resent: the application has no URL for ${channel} sessions`, base };
    if (app.keys.length === 0)
      return { kind: 'end', error: 'not resent: the application has no session signing secret', base };
    return { kind: 'send', url, keys: app.keys, base: { ...base, targetUrl: url } };
  }

  /** Records the attempt, then (out of its key's line when ordered) acknowledges the job. */
  private async finish(
    msg: JsMsg,
    job: ResendJob,
    base: RecordBase,
    a: AttemptFields,
    disable?: DisableRequest,
    ordered?: { k: string },
  ): Promise<void> {
    this.d.metrics.deliveries.inc({ kind: job.target.kind, outcome: a.outcome });
    await this.d.recorder.record(
      attemptRecord({ kind: job.target.kind, webhookId: job.webhookId, attempt: 1 }, base, a),
      disable,
    );
    if (ordered) await this.d.ordering?.releaseResend(job, ordered.k, a.outcome !== 'succeeded');
    msg.ack();
  }
}
