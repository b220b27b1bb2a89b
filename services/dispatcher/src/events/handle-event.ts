// Inbound event -> first attempts. Validates the event (CONTRACTS 4), finds its targets (the
// application for a session, every matching subscription for a notification) and runs the first
// attempt of each right away. The event is acknowledged once every attempt is recorded and every
// retry it needs is published as a job; a crash before that re-delivers the event, and the
// attempts are made again with the same webhook-ids.
import { AppError, type JsMsg, type Logger } from '@switchboard/platform';
import { InvalidEventError, parseEvent } from './schemas';
import { terminate } from './terminate';
import { webhookIdFor, type Job } from '../jobs';
import type { Lookups } from '../lookup/lookups';
import type { DispatcherMetrics } from '../metrics';
import type { DeliveryWorker } from '../delivery/deliver-job';

export interface EventDeps {
  lookups: Lookups;
  worker: DeliveryWorker;
  metrics: DispatcherMetrics;
  logger: Logger;
}

/** The delivery jobs (first attempts) of one stored event. */
export async function jobsOf(msg: JsMsg, lookups: Lookups): Promise<Job[]> {
  const parsed = parseEvent(msg.subject, msg.data);
  const stream = msg.info.stream;
  const ts = msg.timestampNanos;
  const receivedAt = new Date(Number(ts / 1_000_000n)).toISOString();
  if (parsed.kind === 'session') {
    const e = parsed.event;
    return [{ v: 1, kind: 'session', webhookId: webhookIdFor(stream, msg.seq, ts, `app:${e.applicationId}`), attempt: 1, receivedAt, event: e }];
  }
  const e = parsed.event;
  const subs = await lookups.subscriptions({ accountId: e.accountId, applicationId: e.applicationId, event: parsed.webhookEvent, resource: e.resource });
  return subs.map((s) => ({
    v: 1 as const,
    kind: 'notification' as const,
    webhookId: webhookIdFor(stream, msg.seq, ts, `sub:${s.id}`),
    attempt: 1,
    receivedAt,
    subject: parsed.subject,
    subscriptionId: s.id,
    event: e,
  }));
}

export async function handleEvent(msg: JsMsg, deps: EventDeps): Promise<void> {
  let jobs: Job[];
  try {
    jobs = await jobsOf(msg, deps.lookups);
  } catch (err) {
    if (err instanceof InvalidEventError) return terminate(msg, err.message, deps);
    if (err instanceof AppError && (err.code === 'unavailable' || err.code === 'internal')) {
      // The webhooks service is away: the event waits in JetStream and comes back shortly.
      deps.metrics.deferred.inc({ kind: 'notification', reason: 'lookup_unavailable' });
      deps.logger.warn({ subject: msg.subject, seq: msg.seq, err: err.message }, 'subscriptions lookup failed; event deferred');
      msg.nak(Math.round(1500 + Math.random() * 1000));
      return;
    }
    throw err;
  }
  for (const j of jobs) deps.metrics.fannedOut.inc({ kind: j.kind });
  const runs = await Promise.allSettled(jobs.map((j) => deps.worker.run(j, { msg, fromRetry: false })));
  // Any failure re-delivers the whole event (the worker naks it); the others still finish.
  const tails = runs.map((r) => (r.status === 'fulfilled' ? r.value.tail : Promise.reject(r.reason)));
  return deps.worker.track(
    msg,
    Promise.all(tails).then(() => msg.ack()),
  );
}
