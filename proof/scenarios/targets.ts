// Misbehaving targets, each on its own loopback address (the breakers are per host): one that
// never answers, one that answers 500 for a while and then recovers, one that answers 410.
import type { Cluster } from '../cluster';
import { cdrEvent, startApiLoad, startEventLoad, type Account } from '../lib/load';
import type { Receiver } from '../lib/receiver';
import { sleep } from '../lib/stats';
import { api, finish, newAccount, newTarget, type Scale, type ScenarioResult } from './common';
import { DEFAULT_SHAPE, type LoadShape, underLoad } from './faults';

/**
 * The target answers `mode` (a status, or `hang`) on its events and sessions paths for `ms`, then
 * 200, while the cluster is under load; sessions it fails go to the application's fallback URL on `good`.
 */
function targetFaultFor(
  cluster: Cluster,
  bad: Receiver,
  good: Receiver,
  name: string,
  mode: 'hang' | 500,
  ms: number,
  shape: LoadShape,
): Promise<ScenarioResult> {
  const paths = [`/${name}/events`, `/${name}/sessions`];
  return underLoad(
    cluster,
    bad,
    name,
    shape,
    async () => {
      for (const path of paths) bad.setMode(path, mode);
      await sleep(ms);
      for (const path of paths) bad.setMode(path, 200);
    },
    undefined,
    good,
  );
}

/** A scenario of a target that misbehaves (`mode`) for `baseMs` x factor, then answers 200. */
function faultyTarget(name: string, mode: 'hang' | 500, baseMs: number) {
  return (
    cluster: Cluster,
    bad: Receiver,
    good: Receiver,
    scale: Scale,
    shape = DEFAULT_SHAPE,
  ): Promise<ScenarioResult> =>
    targetFaultFor(cluster, bad, good, name, mode, Math.round(baseMs * scale.factor), shape);
}

/**
 * The target hangs (no answer; the dispatcher's timeout fires) for 30 s x factor, then answers 200.
 * Notifications wait for it on their retry schedule; sessions, which are real time, go to the
 * application's fallback URL on `good`.
 */
export const targetTimeout = faultyTarget('target-timeout', 'hang', 30_000);

/**
 * The target answers 500 for 60 s x factor, then 200: every notification still arrives, once per
 * webhook-id; every session it refused arrives at the application's fallback URL on `good`.
 */
export const target500 = faultyTarget('target-500', 500, 60_000);

/**
 * The target answers 410 Gone: the subscription is disabled at once and nothing more is sent to
 * it (requests already in flight when the first 410 came back may still arrive; we allow 1 s).
 */
export async function target410(cluster: Cluster, bad: Receiver, scale: Scale, events = 200): Promise<ScenarioResult> {
  const started = Date.now();
  const name = 'target-410';
  const t = await newTarget(cluster, bad, name);
  bad.setMode(t.eventsPath, 410);
  const accounts: Account[] = [await newAccount(cluster, 'load')];
  const load = startApiLoad({ apiUrl: cluster.apiUrl, accounts, concurrency: 4, voiceUrl: bad.url('/unused') });
  const ev = startEventLoad({
    bus: cluster.bus,
    ratePerSecond: 50,
    count: events,
    make: (i) => cdrEvent(`${name}-${i}`, t.account.id),
  });
  await ev.done;
  await sleep(Math.max(3000, 10_000 * scale.factor));
  await load.stop();
  const log = bad.stats(t.eventsPath).log;
  const first = log.find((r) => r.status === 410)?.at;
  const late = first === undefined ? 0 : log.filter((r) => r.at > first + 1000).length;
  const after = first === undefined ? [] : log.filter((r) => r.at > first);
  const sub = await api(cluster, t.account, 'GET', `/v1/webhooks/${t.subscriptionId}`);
  const deliveries = await api(cluster, t.account, 'GET', `/v1/webhooks/${t.subscriptionId}/deliveries`);
  return finish(
    {
      name,
      eventsPublished: ev.published.size,
      apiRequests: load.log.length,
      apiFailed: load.log.filter((r) => r.status === 0 || r.status >= 400).length,
      figures: {
        requestsToTarget: log.length,
        requestsAfterFirst410: after.length,
        requestsMoreThan1sAfterFirst410: late,
        lastRequestAfterFirst410Ms: after.length ? after[after.length - 1]!.at - first! : 0,
        enabled: sub.json.enabled,
        disabledReason: sub.json.disabledReason,
        recordedAttempts: Array.isArray(deliveries.json) ? deliveries.json.length : deliveries.status,
      },
    },
    started,
    {
      'the target saw a request': first !== undefined,
      'nothing sent more than 1 s after the first 410': late === 0,
      'subscription disabled': sub.json.enabled === false,
    },
  );
}
