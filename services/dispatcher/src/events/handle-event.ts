// Inbound event -> first attempts. Validates the event (CONTRACTS 4), finds its targets (the
// application for a session, every matching subscription for a notification) and runs the first
// attempt of each right away. The event is acknowledged once every attempt is recorded and every
// retry it needs is published as a job; a crash before that re-delivers the event, and the
// attempts are made again with the same webhook-ids.
import type { JsMsg, Logger } from '@switchboard/platform';
import { InvalidEventError, parseEvent } from './schemas';
import { terminate } from './terminate';
import { webhookIdFor, type Job } from '../jobs';
import { isLookupUnavailable, type Lookups, type SubscriptionTarget } from '../lookup/lookups';
import type { DispatcherMetrics } from '../metrics';
import type { InFlight } from '../delivery/in-flight';
import type { DeliveryWorker } from '../delivery/worker';

export interface EventDeps {
  lookups: Lookups;
  worker: DeliveryWorker;
  inFlight: InFlight;
  metrics: DispatcherMetrics;
  logger: Logger;
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

/** The first attempts of one stored event. */
async function firstAttemptsOf(msg: JsMsg, lookups: Lookups): Promise<FirstAttempt[]> {
  const parsed = parseEvent(msg.subject, msg.data);
  const stream = msg.info.stream;
  const ts = msg.timestampNanos;
  const receivedAt = new Date(Number(ts / 1_000_000n)).toISOString();
  if (parsed.kind === 'session') {
    const e = parsed.event;
    return [{ job: { v: 1, kind: 'session', webhookId: webhookIdFor(stream, msg.seq, ts, `app:${e.applicationId}`), attempt: 1, receivedAt, event: e } }];
  }
  const e = parsed.event;
  const subs = await lookups.subscriptions({ accountId: e.accountId, applicationId: e.applicationId, event: parsed.webhookEvent, resource: e.resource });
  return subs.map((s) => ({
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
}

export async function handleEvent(msg: JsMsg, deps: EventDeps): Promise<void> {
  let firsts: FirstAttempt[];
  try {
    firsts = await firstAttemptsOf(msg, deps.lookups);
  } catch (err) {
    if (err instanceof InvalidEventError) return terminate(msg, err.message, deps);
    if (isLookupUnavailable(err)) {
      // The webhooks service is away: the event waits in JetStream and comes back shortly.
      deps.metrics.deferred.inc({ kind: 'notification', reason: 'lookup_unavailable' });
      deps.logger.warn({ subject: msg.subject, seq: msg.seq, err: (err as Error).message }, 'subscriptions lookup failed; event deferred');
      msg.nak(Math.round(1500 + Math.random() * 1000));
      return;
    }
    throw err;
  }
  for (const f of firsts) deps.metrics.fannedOut.inc({ kind: f.job.kind });
  const runs = await Promise.allSettled(firsts.map((f) => deps.worker.run(f.job, { msg, fromRetry: false }, f.matched)));
  // Any failure re-delivers the whole event (the in-flight tracker naks it); the others still finish.
  const recordings = runs.map((r) => (r.status === 'fulfilled' ? r.value.recording : Promise.reject(r.reason)));
  return deps.inFlight.track(
    msg,
    Promise.all(recordings).then(() => msg.ack()),
  );
}
