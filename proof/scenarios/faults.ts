// Faults under sustained load: API writes through the gateways' proxy and a stream of events
// (cdr.created to an account-level subscription, sessions.new to an application) while a replica
// is killed with SIGKILL, Postgres is stopped, NATS is restarted. Each reports the API requests
// that failed, events lost (published and acknowledged by JetStream, never answered 2xx by the
// receiver), duplicates (2xx deliveries sharing a webhook-id) and the time to recover.
import type { Cluster, Service } from '../cluster';
import { cdrEvent, sessionEvent, startApiLoad, startEventLoad, summarizeApi, type Account } from '../lib/load';
import { duplicates, type Receiver } from '../lib/receiver';
import { sleep } from '../lib/stats';
import { finish, newAccount, newTarget, until, type Scale, type ScenarioResult } from './common';

export interface LoadShape {
  /** Events per second (half cdr.created, half sessions.new). */
  eventRate: number;
  /** Events published at once per tick. */
  burst?: number;
  /** API workers. */
  apiConcurrency: number;
  /** Load before the fault and after it is repaired. */
  beforeMs: number;
  afterMs: number;
  /** How long to wait for every event to be delivered after the fault. */
  drainTimeoutMs: number;
}

export const DEFAULT_SHAPE: LoadShape = {
  eventRate: 40,
  apiConcurrency: 8,
  beforeMs: 3000,
  afterMs: 3000,
  drainTimeoutMs: 120_000,
};

/**
 * Runs `fault` (which injects the fault and returns once it is repaired) under load and measures.
 * `extraChecks` may add checks of its own.
 */
export async function underLoad(
  cluster: Cluster,
  rx: Receiver,
  name: string,
  shape: LoadShape,
  fault: () => Promise<void>,
  loadAccounts?: Account[],
  /** Where sessions go when `rx` fails them (the application's voiceFallbackUrl). */
  fallback?: Receiver,
): Promise<ScenarioResult> {
  const started = Date.now();
  const t = await newTarget(cluster, rx, name, fallback);
  const accounts = loadAccounts ?? [await newAccount(cluster, 'load'), await newAccount(cluster, 'load')];
  const api = startApiLoad({
    apiUrl: cluster.apiUrl,
    accounts,
    concurrency: shape.apiConcurrency,
    voiceUrl: rx.url('/unused'),
  });
  const events = startEventLoad({
    bus: cluster.bus,
    ratePerSecond: shape.eventRate,
    ...(shape.burst ? { burst: shape.burst } : {}),
    make: (i) =>
      i % 2 === 0
        ? cdrEvent(`${name}-c${i}`, t.account.id)
        : sessionEvent(`${name}-s${i}`, t.account.id, t.applicationId),
  });
  await sleep(shape.beforeMs);
  const faultAt = Date.now();
  await fault();
  const restoredAt = Date.now();
  await sleep(shape.afterMs);
  await Promise.all([api.stop(), events.stop()]);
  // A session counts as delivered at its primary URL or at its fallback URL.
  const sessionOk = (id: string) =>
    rx.stats(t.sessionsPath).okEvents.has(id) || (fallback?.stats(t.sessionsPath).okEvents.has(id) ?? false);
  const delivered = () => {
    const ev = rx.stats(t.eventsPath).okEvents;
    for (const id of events.published) if (!ev.has(id) && !sessionOk(id)) return false;
    return true;
  };
  const drainedAt = await until(delivered, shape.drainTimeoutMs);
  await sleep(500); // late duplicates
  const ev = rx.stats(t.eventsPath);
  const se = rx.stats(t.sessionsPath);
  let lost = 0;
  for (const id of events.published) if (!ev.okEvents.has(id) && !sessionOk(id)) lost++;
  const s = summarizeApi(api.log, faultAt);
  return finish(
    {
      name,
      apiRequests: s.requests,
      apiFailed: s.failed,
      apiFailedByStatus: s.failedByStatus,
      eventsPublished: events.published.size,
      eventsLost: lost,
      duplicates: duplicates(ev) + duplicates(se),
      outageMs: restoredAt - faultAt,
      apiRecoveryMs: s.lastFailureAfterMs,
      deliveryRecoveryMs: drainedAt ? Math.max(0, drainedAt - restoredAt) : -1,
      figures: { publishRetries: events.publishRetries },
    },
    started,
    {
      'no event lost': lost === 0,
      'every event delivered in time': drainedAt !== undefined,
      'API answered after the fault': s.requests > 0,
    },
  );
}

/** kill -9 of one replica of `service`; restarted after `downMs`. */
export function killReplica(
  cluster: Cluster,
  rx: Receiver,
  service: Service,
  scale: Scale,
  shape = DEFAULT_SHAPE,
): Promise<ScenarioResult> {
  const victim = cluster.of(service)[0]!;
  return outage(
    cluster,
    rx,
    `kill-${service}`,
    shape,
    Math.round(5000 * scale.factor),
    () => victim.kill9(),
    () => victim.start(),
  );
}

/** Under load: `stop`, then `start` `downMs` later. */
function outage(
  cluster: Cluster,
  rx: Receiver,
  name: string,
  shape: LoadShape,
  downMs: number,
  stop: () => Promise<unknown>,
  start: () => Promise<unknown>,
): Promise<ScenarioResult> {
  return underLoad(cluster, rx, name, shape, async () => {
    await stop();
    await sleep(downMs);
    await start();
  });
}

export function postgresDown(
  cluster: Cluster,
  rx: Receiver,
  scale: Scale,
  shape = DEFAULT_SHAPE,
): Promise<ScenarioResult> {
  return outage(
    cluster,
    rx,
    'postgres-down',
    shape,
    Math.round(10_000 * scale.factor),
    () => cluster.stopPostgres(),
    () => cluster.startPostgres(),
  );
}

export function natsRestart(
  cluster: Cluster,
  rx: Receiver,
  _scale: Scale,
  shape = DEFAULT_SHAPE,
): Promise<ScenarioResult> {
  return underLoad(cluster, rx, 'nats-restart', shape, async () => {
    await cluster.restartNats();
  });
}
