// Short version of `npm run proof -- auth-abuse`: a brute force against one username is locked out
// (429 + Retry-After), the owner's verified credentials keep working, other accounts are not slowed.
import { expect, it } from 'vitest';
import type { Cluster } from '../../proof/cluster';
import { useCluster } from './fixture';
import { authAbuse } from '../../proof/scenarios/auth';

let cluster: Cluster;

useCluster({ gateways: 2, applications: 1, webhooks: 0, dispatchers: 0, privatePostgres: false }, (c) => (cluster = c));

it('when one username is brute-forced through two gateways, then it is locked out and other accounts do not notice', async () => {
  const r = await authAbuse(cluster, { factor: 0.2 }, 8);
  expect(r.failures).toEqual([]);
  expect(r.figures!.passwordsActuallyTried as number).toBeLessThanOrEqual(2 * (5 + 8));
  expect(r.figures!.lockedOut429 as number).toBeGreaterThan(0);
  expect(r.apiFailed).toBe(0);
}, 90_000);
