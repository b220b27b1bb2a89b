// The fixture of a short proof that drives events at a target: a cluster and one receiver, started
// before the file's tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startCluster, type Cluster, type ClusterOptions } from '../../proof/cluster';
import { startReceiver, type Receiver } from '../../proof/lib/receiver';

/** Starts the cluster of `options` and a receiver for the file; `onReady` receives them (e.g. `useClusterWithReceiver(o, (f) => ({ cluster, rx } = f))`). */
export function useClusterWithReceiver(
  options: ClusterOptions,
  onReady: (f: { cluster: Cluster; rx: Receiver }) => void,
): void {
  let cluster: Cluster | undefined;
  let rx: Receiver | undefined;
  beforeAll(async () => {
    cluster = await startCluster(options);
    rx = await startReceiver();
    onReady({ cluster, rx });
  }, 120_000);
  afterAll(async () => {
    await rx?.close();
    await cluster?.stop();
  });
}
