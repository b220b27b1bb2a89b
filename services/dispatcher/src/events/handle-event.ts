// Inbound event -> first attempts. Validates the event (docs/events.md#inbound), finds its targets
// (the application for a session, by the address it was dialled at when it names none; every
// matching subscription for a notification) and runs the first attempt of each right away. The
// event is acknowledged once every attempt is recorded and every retry it needs is published as a
// job; a crash before that re-delivers the event, and the attempts are made again with the same
// webhook-ids. An event that fails is dead-lettered, waits or is retried a bounded number of
// times (poison.ts), so poison never fills the consumer.
import { publishJson, type JetStreamClient, type JsMsg } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import type { Logger } from '@switchboard/observability';
import { parseEvent, type ParsedEvent, type SessionNewEvent } from './schemas.ts';
import { deadLetter } from './dead-letter.ts';
import { classifyEventError, MAX_EVENT_DELIVERIES, retryDelayMs, waitDelayMs } from './poison.ts';
import { STATUS_CALLBACK, webhookIdFor, type Job, type SessionJob } from '../jobs.ts';
import type { Lookups, SubscriptionTarget } from '../lookup/lookups.ts';
import { routeSession } from '../lookup/route-session.ts';
import type { DispatcherMetrics } from '../metrics.ts';
import type { InFlight } from '../delivery/in-flight.ts';
import type { DeliveryWorker } from '../delivery/worker.ts';

export interface EventDeps {
  lookups: Lookups;
  worker: DeliveryWorker;
  inFlight: InFlight;
  metrics: DispatcherMetrics;
  logger: Logger;
  /** Publishes dead letters. */
  js: JetStreamClient;
  /** The server's max_payload in bytes. */
  maxPayload: () => number;
}

/**
 * A first attempt: the job, and for a notification the subscription fan-out matched, which the
 * attempt uses as it is. It stays in memory (it holds the signing keys): a job that is deferred
 * or retried is stored without it and reads its subscription afresh.
 */
interface FirstAttempt {
  job: Job;
  matched?: SubscriptionTarget;
}

/** How a session finds its application: a Session API launch (its token), the application it names, or its dialled address. */
function routedBy(e: SessionNewEvent): NonNullable<SessionJob['routedBy']> {
  if (e.launch) return { type: 'token', value: e.launch.token };
  if (e.applicationId) return { type: 'application', value: e.applicationId };
  return { type: 'address', value: e.session.to?.id ?? null };
}

/** The first attempts of one stored event. */
async function firstAttemptsOf(msg: JsMsg, lookups: Lookups): Promise<FirstAttempt[]> {
  const parsed = parseEvent(msg.subject, msg.data);
  const stream = msg.info.stream;
  const ts = msg.timestampNanos;
  const receivedAt = new Date(Number(ts / 1_000_000n)).toISOString();
  if (parsed.kind === 'session') {
    const e = await routeSession(parsed.event, lookups);
    const target = e.applicationId ? `app:${e.applicationId}` : `to:${e.session.to?.id ?? ''}`;
    return [
      {
        job: {
          v: 1,
          kind: 'session',
          webhookId: webhookIdFor(stream, msg.seq, ts, target),
          attempt: 1,
          receivedAt,
          event: e,
          routedBy: routedBy(parsed.event),
        },
      },
    ];
  }
  const e = parsed.event;
  const subs = await lookups.subscriptions({
    accountId: e.accountId,
    applicationId: e.applicationId,
    event: parsed.webhookEvent,
    resource: e.resource,
  });
  const firsts: FirstAttempt[] = subs
    .filter((s) => !isOwnDisabling(s.id, parsed))
    .map((s) => ({
      job: {
        v: 1 as const,
        kind: 'notification' as const,
        webhookId: webhookIdFor(stream, msg.seq, ts, `sub:${s.id}`),
        attempt: 1,
        receivedAt,
        subject: parsed.subject,
        subscriptionId: s.id,
        event: e,
      },
      matched: s,
    }));
  // A session launched with a statusCallbackUrl: its events go there too (plan.ts planStatusCallback).
  if ('statusCallbackUrl' in e && e.statusCallbackUrl && e.applicationId)
    firsts.push({
      job: {
        v: 1,
        kind: 'notification',
        webhookId: webhookIdFor(stream, msg.seq, ts, STATUS_CALLBACK),
        attempt: 1,
        receivedAt,
        subject: parsed.subject,
        subscriptionId: STATUS_CALLBACK,
        event: e,
      },
    });
  return firsts;
}

/**
 * Whether the event announces that this very subscription was disabled. It is disabled by then, so
 * it matches only through a match cached a moment earlier; it is never sent its own notice (that
 * attempt could only fail again, to a target that asked to stop or has been failing for days).
 */
function isOwnDisabling(subscriptionId: string, parsed: ParsedEvent): boolean {
  return (
    parsed.kind === 'notification' &&
    parsed.webhookEvent === 'webhookDisabled' &&
    'subscriptionId' in parsed.event.data &&
    parsed.event.data.subscriptionId === subscriptionId
  );
}

/**
 * A `cdr.created` whose data names a session marks that session ended when the core sent no
 * `sessions.ended` of its own: the dispatcher, the inbound work queue's one reader, passes it on as
 * a `sessions.ended` (the webhooks service records a session's end once, whichever comes first).
 * Published before any attempt, so a failed publish hands the event back with nothing sent.
 */
async function passOnSessionEnd(msg: JsMsg, deps: EventDeps): Promise<void> {
  if (msg.subject !== SUBJECTS.cdrCreated) return;
  let e: { id?: unknown; timestamp?: unknown; data?: { sessionId?: unknown } };
  try {
    e = msg.json();
  } catch {
    return;
  }
  const sessionId = e?.data?.sessionId;
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 400) return;
  if (typeof e.timestamp !== 'string') return;
  await publishJson(deps.js, SUBJECTS.sessionEnded, { sessionId, at: e.timestamp }, `cdr-end:${msg.seq}`);
}

export async function handleEvent(msg: JsMsg, deps: EventDeps): Promise<void> {
  let firsts: FirstAttempt[];
  try {
    await passOnSessionEnd(msg, deps);
    firsts = await firstAttemptsOf(msg, deps.lookups);
  } catch (err) {
    return eventFailed(msg, err, deps, msg.subject === SUBJECTS.sessionNew ? 'session' : 'notification');
  }
  for (const f of firsts) deps.metrics.fannedOut.inc({ kind: f.job.kind });
  const runs = await Promise.allSettled(
    firsts.map((f) => deps.worker.run(f.job, { msg, fromRetry: false }, f.matched)),
  );
  // The attempts that ran are recorded whatever happened to the others; then the event is
  // acknowledged, or handed to eventFailed with the first failure (re-made attempts keep their webhook-ids).
  const recordings = runs.map((r) => (r.status === 'fulfilled' ? r.value.recording : Promise.reject(r.reason)));
  return deps.inFlight.track(
    msg,
    Promise.allSettled(recordings).then((ends) => {
      const failed = ends.find((e) => e.status === 'rejected');
      if (!failed) return msg.ack();
      return eventFailed(msg, failed.reason, deps, firsts[0]?.job.kind ?? 'notification');
    }),
  );
}

/** Dead-letters, holds back or retries an event whose handling failed (see poison.ts). */
async function eventFailed(msg: JsMsg, err: unknown, deps: EventDeps, kind: Job['kind']): Promise<void> {
  const v = classifyEventError(err);
  const deliveries = msg.info.deliveryCount;
  if (v.kind === 'refused') return deadLetter(msg, v.reason, v.detail, deps);
  if (v.kind === 'wait') {
    // A dependency is away: the event waits in JetStream and comes back shortly, however long it takes.
    deps.metrics.deferred.inc({ kind, reason: 'lookup_unavailable' });
    deps.logger.warn(
      { subject: msg.subject, seq: msg.seq, err: v.detail },
      'a dependency is unavailable; event deferred',
    );
    msg.nak(waitDelayMs(deliveries));
    return;
  }
  if (deliveries >= MAX_EVENT_DELIVERIES)
    return deadLetter(msg, 'too_many_deliveries', `failed ${deliveries} times, last: ${v.detail}`, deps);
  const delay = retryDelayMs(deliveries);
  deps.logger.error(
    { subject: msg.subject, seq: msg.seq, err, deliveries, retryInMs: delay },
    'event handling failed; will retry',
  );
  msg.nak(delay);
}
