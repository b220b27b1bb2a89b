// Short version of `npm run proof -- tenant-flood`: an unauthenticated flood of over-long session ids
// leaves two gateways' memory where it was, and one account launching over ten tokens on both
// gateways gets its per-account budget (here 5 a second, bursts of 10) and 429 beyond.
import { expect, it } from 'vitest';
import type { Cluster } from '../../proof/cluster';
import { useCluster } from './fixture';
import { tenantFlood } from '../../proof/scenarios/tenant-flood';

let cluster: Cluster;

useCluster(
  {
    gateways: 2,
    applications: 1,
    webhooks: 0,
    dispatchers: 0,
    privatePostgres: false,
    env: { SESSION_LAUNCH_RATE_PER_ACCOUNT: '5', SESSION_LAUNCH_BURST_PER_ACCOUNT: '10' },
  },
  (c) => (cluster = c),
);

it('when stranger and tenant flood the Session API, then the gateways keep their memory and the account gets its launch budget, not one per token or replica', async () => {
  const r = await tenantFlood(cluster, { factor: 0.05 }, { rate: 5, burst: 10 });
  console.log(JSON.stringify(r.figures));
  expect(r.failures).toEqual([]);
}, 180_000);
