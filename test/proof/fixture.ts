// The fixtures of the short proofs: a cluster (and, for those that drive events at a target, one
// receiver), started before the file's tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startCluster, type Cluster, type ClusterOptions } from '../../proof/cluster';
import { startReceiver, type Receiver } from '../../proof/lib/receiver';
import { useFixture } from '../support';

/**
 * Starts the cluster of `options` (one gateway, applications and webhooks service unless they say
 * otherwise) and a receiver for the file; `onReady` receives them (e.g.
 * `useClusterWithReceiver(o, (f) => ({ cluster, rx } = f))`).
 */
export function useClusterWithReceiver(
  options: ClusterOptions,
  onReady: (f: { cluster: Cluster; rx: Receiver }) => void,
): void {
  let cluster: Cluster | undefined;
  let rx: Receiver | undefined;
  beforeAll(async () => {
    cluster = await startCluster({ gateways: 1, applications: 1, webhooks: 1, ...options });
    rx = await startReceiver();
    onReady({ cluster, rx });
  }, 120_000);
  afterAll(async () => {
    await rx?.close();
    await cluster?.stop();
  });
}

/** Starts the cluster of `options` for the file; `onReady` receives it (e.g. `useCluster(o, (c) => (cluster = c))`). */
export function useCluster(options: ClusterOptions, onReady: (cluster: Cluster) => void): void {
  useFixture(
    () => startCluster(options),
    (cluster) => cluster.stop(),
    onReady,
    120_000,
  );
}
