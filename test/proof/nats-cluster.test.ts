// Short version of `npm run proof -- nats-cluster`: three clustered nats-server processes, streams
// created with 3 replicas, every service given the three URLs. Under a steady stream of events a
// server that does not lead the events stream is killed with SIGKILL and restarted, then the
// stream's leader; no acknowledged event is lost and deliveries resume within a bound.
import { expect, it } from 'vitest';
import { natsClusterScenario, NATS_CLUSTER_SHAPE } from '../../proof/scenarios/nats-cluster';

it('when one NATS server and then the events stream leader are killed with SIGKILL under load, then no event is lost and deliveries resume within 20 s', async () => {
  const r = await natsClusterScenario(
    { factor: 0.3 },
    { ...NATS_CLUSTER_SHAPE, eventRate: 40, resumeBoundMs: 20_000, drainTimeoutMs: 40_000 },
    { gateways: 1, applications: 1, webhooks: 1, dispatchers: 2, privatePostgres: false },
  );
  expect(r.failures).toEqual([]);
  expect(r.eventsPublished).toBeGreaterThan(200);
  expect(r.eventsLost).toBe(0);
  const f = r.figures as {
    streams: Record<string, string>;
    kills: Array<{ role: string; server: string; leaderAfter?: string; resumeMs: number }>;
  };
  expect(Object.values(f.streams).every((s) => s.startsWith('R3,'))).toBe(true);
  expect(f.kills.map((k) => k.role)).toEqual(['follower', 'leader']);
  // The second kill took the stream's leader: another server leads it now.
  expect(f.kills[1]!.leaderAfter).not.toBe(f.kills[1]!.server);
  for (const k of f.kills) {
    expect(k.resumeMs).toBeGreaterThanOrEqual(0);
    expect(k.resumeMs).toBeLessThanOrEqual(20_000);
  }
}, 180_000);
