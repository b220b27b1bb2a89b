// Short versions of the cluster scenarios of `npm run proof` (scale-out, kill -9 of each service,
// NATS restart, misbehaving targets, soak), all on one cluster: 2 gateways, 2 applications,
// 2 webhooks and 3 dispatchers behind round-robin proxies, loaded with API writes and events.
// The full lengths run in `npm run proof`; Postgres stopped is test/proof/postgres-down.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type Service } from '../../proof/cluster';
import { startReceiver, type Receiver } from '../../proof/lib/receiver';
import type { ScenarioResult } from '../../proof/scenarios/common';
import { killReplica, natsRestart, type LoadShape } from '../../proof/scenarios/faults';
import { scaleOut } from '../../proof/scenarios/scale';
import { soak } from '../../proof/scenarios/soak';
import { target410, target500, targetTimeout } from '../../proof/scenarios/targets';

const SHAPE: LoadShape = { eventRate: 30, apiConcurrency: 3, beforeMs: 1000, afterMs: 1000, drainTimeoutMs: 45_000 };

let cluster: Cluster;
let rx: Receiver;
let bad: Receiver;

beforeAll(async () => {
  cluster = await startCluster({ privatePostgres: false });
  rx = await startReceiver('127.0.0.1');
  // Misbehaving targets live on another loopback address: breakers are per host.
  bad = await startReceiver('127.0.0.2');
}, 180_000);
afterAll(async () => {
  await Promise.all([rx?.close(), bad?.close()]);
  await cluster?.stop();
}, 60_000);

/** What every fault must show: the scenario's own checks held, nothing lost, and no failure was a 500. */
function expectNothingLost(r: ScenarioResult): void {
  expect(r.failures).toEqual([]);
  expect(r.eventsPublished).toBeGreaterThan(20);
  expect(r.eventsLost).toBe(0);
  // Faults may cost a request in flight (a reset connection) or a retryable 503, never an internal error.
  expect(Object.keys(r.apiFailedByStatus ?? {}).filter((s) => s !== '0' && s !== '503')).toEqual([]);
}

describe('the cluster under load', () => {
  it('when load runs, then every replica of every service does work and nothing is lost', async () => {
    const r = await scaleOut(cluster, rx, { factor: 0.15 }, SHAPE);
    expectNothingLost(r);
    expect(Object.keys(r.figures!.workPerReplica as object)).toHaveLength(9);
    expect(r.apiFailed).toBe(0);
  }, 90_000);

  for (const service of ['gateway', 'applications', 'webhooks'] as Service[]) {
    it(`when one ${service} replica is killed with SIGKILL and restarted, then no event is lost and the API keeps answering`, async () => {
      const r = await killReplica(cluster, rx, service, { factor: 0.2 }, SHAPE);
      expectNothingLost(r);
      // The other replica carries the load: at most the requests in flight on the victim fail.
      expect(r.apiFailed!).toBeLessThanOrEqual(SHAPE.apiConcurrency * 2);
      expect(cluster.of(service).every((x) => x.alive())).toBe(true);
    }, 90_000);
  }

  it('when NATS restarts under load, then producers and consumers reconnect and no event is lost', async () => {
    const r = await natsRestart(cluster, rx, { factor: 0.2 }, SHAPE);
    expectNothingLost(r);
    expect(r.apiFailed).toBe(0);
  }, 90_000);

  it('when a target hangs past the delivery timeout for 3 s, then its events arrive once it answers', async () => {
    const r = await targetTimeout(cluster, bad, rx, { factor: 0.1 }, SHAPE);
    expectNothingLost(r);
  }, 90_000);

  it('when a target answers 500 for 3 s, then every event arrives after it recovers', async () => {
    const r = await target500(cluster, bad, rx, { factor: 0.05 }, SHAPE);
    expectNothingLost(r);
    // The target did refuse deliveries, and every one it refused was delivered again after it recovered.
    // Notifications are retried at the same target; sessions (real time) went to the fallback URL on rx.
    for (const [path, deliveredAt] of [
      ['/target-500/events', bad],
      ['/target-500/sessions', rx],
    ] as const) {
      const refused = new Set(
        bad
          .stats(path)
          .log.filter((x) => x.status === 500)
          .map((x) => x.webhookId),
      );
      const ok = deliveredAt.stats(path).okByWebhookId;
      expect(refused.size, `deliveries refused on ${path}`).toBeGreaterThan(0);
      expect(
        [...refused].filter((id) => !ok.has(id)),
        `refused on ${path}, never delivered`,
      ).toEqual([]);
    }
    // Redelivered on the retry schedule (steps of at most 5 s), not after the 45 s drain timeout.
    expect(r.deliveryRecoveryMs!).toBeGreaterThanOrEqual(SHAPE.afterMs);
    expect(r.deliveryRecoveryMs!).toBeLessThan(SHAPE.afterMs + 15_000);
  }, 90_000);

  it('when a target answers 410, then its subscription is disabled and nothing more is sent', async () => {
    const r = await target410(cluster, bad, { factor: 0.1 }, 60);
    expect(r.failures).toEqual([]);
    expect(r.figures).toMatchObject({ enabled: false, requestsMoreThan1sAfterFirst410: 0 });
    expect(r.figures!.disabledReason).toMatch(/410/);
  }, 90_000);

  it('when reads are held at half the measured maximum for 15 s with writes and events, then nothing fails and the backlog drains', async () => {
    const r = await soak(cluster, rx, { minutes: 0.25, measureSeconds: 3, eventRate: 20 });
    expect(r.failures).toEqual([]);
    expect(r.apiFailed).toBe(0);
    expect(r.eventsLost).toBe(0);
    expect(r.figures).toMatchObject({ consumerPendingAfterDrain: 0, eventsDrained: true });
  }, 120_000);
});
