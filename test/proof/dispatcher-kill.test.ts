// Short version of `npm run proof -- kill-dispatcher`: a dispatcher replica is killed with SIGKILL
// in the middle of a burst of events; every event still arrives, duplicates only share a webhook-id.
import { expect, it } from 'vitest';
import type { Cluster } from '../../proof/cluster';
import type { Receiver } from '../../proof/lib/receiver';
import { useClusterWithReceiver } from './fixture';
import { killReplica } from '../../proof/scenarios/faults';

let cluster: Cluster;
let rx: Receiver;

useClusterWithReceiver(
  { gateways: 1, applications: 1, webhooks: 1, dispatchers: 2, privatePostgres: false },
  (f) => ({ cluster, rx } = f),
);

it('when a dispatcher replica is killed with SIGKILL mid-burst of 300+ events, then none is lost', async () => {
  const r = await killReplica(
    cluster,
    rx,
    'dispatcher',
    { factor: 0.3 },
    { eventRate: 120, burst: 20, apiConcurrency: 2, beforeMs: 1000, afterMs: 1000, drainTimeoutMs: 40_000 },
  );
  expect(r.eventsPublished).toBeGreaterThanOrEqual(300);
  expect(r.eventsLost).toBe(0);
  expect(r.failures).toEqual([]);
  // The survivor and the restarted replica keep the API untouched: the dispatcher is not on its path.
  expect(r.apiFailedByStatus).toEqual({});
}, 90_000);
