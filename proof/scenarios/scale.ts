// Scale-out: under load, every replica of every service does work (read from each replica's own
// /metrics), and nothing is lost.
import type { Cluster, Replica } from '../cluster';
import type { Receiver } from '../lib/receiver';
import { metricSum } from '../lib/stats';
import { DEFAULT_SHAPE, underLoad } from './faults';
import type { Scale, ScenarioResult } from './common';

/** The counter that shows a replica worked. */
async function work(r: Replica): Promise<number> {
  const text = await r.metrics().catch(() => '');
  switch (r.service) {
    case 'gateway':
      return metricSum(text, 'gateway_http_requests_total');
    case 'applications':
      return metricSum(text, 'applications_grpc_server_handled_total');
    case 'webhooks':
      return metricSum(text, 'webhooks_grpc_server_handled_total');
    case 'dispatcher':
      return metricSum(text, 'dispatcher_deliveries_total', { outcome: 'succeeded' });
  }
}

export async function scaleOut(
  cluster: Cluster,
  rx: Receiver,
  scale: Scale,
  shape = DEFAULT_SHAPE,
): Promise<ScenarioResult> {
  const before = await Promise.all(cluster.replicas.map(work));
  const loadMs = Math.round(20_000 * scale.factor);
  const r = await underLoad(
    cluster,
    rx,
    'scale-out',
    { ...shape, beforeMs: loadMs, afterMs: 0, eventRate: shape.eventRate * 2 },
    async () => undefined,
  );
  const after = await Promise.all(cluster.replicas.map(work));
  const perReplica: Record<string, number> = {};
  for (const [i, rep] of cluster.replicas.entries()) perReplica[rep.name] = after[i]! - before[i]!;
  const idle = Object.entries(perReplica)
    .filter(([, n]) => n <= 0)
    .map(([name]) => name);
  const failures = [...r.failures, ...idle.map((n) => `replica ${n} did work`)];
  return {
    ...r,
    ok: failures.length === 0,
    failures,
    outageMs: 0,
    figures: { ...r.figures, workPerReplica: perReplica },
  };
}
