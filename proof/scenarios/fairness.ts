// Retry fairness: one tenant's endpoint stays dead with 20,000 deliveries waiting for their next
// retry, twice what the retry window (DELIVERY_MAX_SCHEDULED) holds, while another tenant's
// deliveries fail once and must be retried on schedule. Before each target had a bounded share of
// that window, the dead endpoint's retries filled it and the other tenant's retries stayed in the
// stream, undelivered, until the dead ones ended (an hour here, days with the default schedule).
import { startCluster } from '../cluster';
import { cdrEvent, startEventLoad } from '../lib/load';
import { startReceiver } from '../lib/receiver';
import { finish, newTarget, until, type Scale, type ScenarioResult } from './common';

const RETRY_MS = 1000;
const JITTER = 0.2;

export async function retryFairness(scale: Scale, dead = 20_000, others = 20): Promise<ScenarioResult> {
  const started = Date.now();
  const name = 'retry-fairness';
  // Attempt 2 one second after attempt 1, attempt 3 an hour later: the dead endpoint's deliveries
  // all end up waiting for an hour.
  const cluster = await startCluster({
    gateways: 1,
    applications: 1,
    webhooks: 1,
    dispatchers: 1,
    privatePostgres: false,
    allowedCidrs: '127.0.0.0/8',
    dispatcherEnv: {
      DELIVERY_RETRY_SCHEDULE: `${RETRY_MS}ms,1h`,
      DELIVERY_RETRY_JITTER: String(JITTER),
      DELIVERY_MAX_SCHEDULED: String(dead / 2),
      DELIVERY_SCHEDULED_PER_TARGET: String(dead / 20),
    },
  });
  // Each on its own host: a 400 is retried and does not open the breaker.
  const deadRx = await startReceiver('127.0.0.2');
  const rx = await startReceiver('127.0.0.1');
  try {
    const d = await newTarget(cluster, deadRx, `${name}-dead`);
    deadRx.setMode(d.eventsPath, 400);
    const deadLoad = startEventLoad({
      bus: cluster.bus,
      ratePerSecond: 2000,
      count: dead,
      make: (i) => cdrEvent(`${name}-dead-${i}`, d.account.id),
    });
    await deadLoad.done;
    const allWaiting = await until(
      () => deadRx.stats(d.eventsPath).requests >= 2 * dead,
      Math.max(60_000, 300_000 * scale.factor),
    );
    // let the last retry jobs reach the window
    await new Promise((r) => setTimeout(r, 2000));

    const o = await newTarget(cluster, rx, `${name}-other`);
    const firstSeen = new Map<string, number>();
    // Every delivery's first attempt fails with 503 (they are published at once), its retry gets 204.
    rx.setMode(o.eventsPath, () => (rx.stats(o.eventsPath).requests <= others ? 503 : 204));
    const otherLoad = startEventLoad({
      bus: cluster.bus,
      ratePerSecond: 1000,
      count: others,
      make: (i) => cdrEvent(`${name}-other-${i}`, o.account.id),
    });
    await otherLoad.done;
    await until(() => rx.stats(o.eventsPath).okEvents.size >= others, 30_000);
    // Lateness of each retry: from the first attempt plus the longest scheduled delay to the retry.
    const lateness: number[] = [];
    for (const r of rx.stats(o.eventsPath).log) {
      const first = firstSeen.get(r.webhookId);
      if (first === undefined) firstSeen.set(r.webhookId, r.at);
      else if (r.status === 204) lateness.push(r.at - first - RETRY_MS * (1 + JITTER));
    }
    const missing = others - lateness.length;
    const maxLate = lateness.length ? Math.max(...lateness) : Infinity;
    const parked = await (
      await fetch(`http://127.0.0.1:${cluster.replicas.find((r) => r.service === 'dispatcher')!.metricsPort}/metrics`)
    )
      .text()
      .then((t) => {
        const m = /dispatcher_retries_parked_total\{kind="notification"\} (\d+)/.exec(t);
        return m ? Number(m[1]) : 0;
      });
    return finish(
      {
        name,
        eventsPublished: deadLoad.published.size + otherLoad.published.size,
        figures: {
          deadDeliveriesWaiting: dead,
          retryWindow: dead / 2,
          perTargetShare: dead / 20,
          allDeadWaitingAfterMs: allWaiting === undefined ? -1 : allWaiting - started,
          otherRetries: lateness.length,
          otherRetriesMissing: missing,
          otherRetryMaxLateMs: Number.isFinite(maxLate) ? Math.round(maxLate) : -1,
          otherRetryMedianLateMs: lateness.length
            ? Math.round([...lateness].sort((a, b) => a - b)[Math.floor(lateness.length / 2)]!)
            : -1,
          parked,
        },
      },
      started,
      {
        'every dead delivery was attempted twice and waits for its third attempt': allWaiting !== undefined,
        'every retry of the other tenant was made': missing === 0,
        "the other tenant's retries were at most 2 s late": maxLate <= 2000,
        "the dead endpoint's retries beyond its share were parked": parked > 0,
      },
    );
  } finally {
    await Promise.all([rx.close(), deadRx.close()]);
    await cluster.stop();
  }
}
