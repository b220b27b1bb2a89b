// Short version of `npm run proof -- kdf-flood`: 400 logins with wrong passwords for unknown
// usernames in flight at once do not reach the KDF beyond the per-address budget, and do not slow
// or refuse an account whose credentials the gateway has cached.
import { expect, it } from 'vitest';
import type { Cluster } from '../../proof/cluster';
import { useCluster } from './fixture';
import { kdfFlood } from '../../proof/scenarios/auth';

let cluster: Cluster;

useCluster({ gateways: 1, applications: 1, webhooks: 0, dispatchers: 0, privatePostgres: false }, (c) => (cluster = c));

it('when 400 bad logins for unknown users are in flight, then few reach the KDF and a cached account is neither refused nor slowed', async () => {
  const r = await kdfFlood(cluster, { factor: 0.3 }, 400);
  const f = r.figures as Record<string, number>;
  console.log(JSON.stringify(f));
  expect(f.cachedFailed).toBe(0);
  expect(f.refusedWithoutRetryAfter).toBe(0);
  // The address's burst (20) plus 1 a second over the scenario's ~25 s.
  expect(f.passwordsVerified).toBeLessThanOrEqual(20 + 40);
  // Compared within the same run (alternating windows). On a loaded 2-core machine the tail is noise
  // from other processes, so the test holds the median; the proof scenario checks the p99 (2x).
  expect(f.cachedP50DuringMs).toBeLessThanOrEqual(2 * f.cachedP50BeforeMs! + 20);
}, 120_000);
