// Short version of `npm run proof -- postgres-down`: Postgres stopped for 3 s under load. The API
// answers 503 (never 500) while it is down and recovers by itself; no event is lost.
import { expect, it } from 'vitest';
import type { Cluster } from '../../proof/cluster';
import type { Receiver } from '../../proof/lib/receiver';
import { useClusterWithReceiver } from './fixture';
import { postgresDown } from '../../proof/scenarios/faults';

let cluster: Cluster;
let rx: Receiver;

useClusterWithReceiver({ dispatchers: 1, privatePostgres: true }, (f) => ({ cluster, rx } = f));

it('when Postgres stops for 3 s, then the API answers 503 meanwhile, recovers, and no event is lost', async () => {
  const r = await postgresDown(
    cluster,
    rx,
    { factor: 0.3 },
    { eventRate: 30, apiConcurrency: 3, beforeMs: 1000, afterMs: 2000, drainTimeoutMs: 40_000 },
  );
  expect(r.failures).toEqual([]);
  expect(r.apiFailed).toBeGreaterThan(0);
  // Only 503s: retryable, nothing half-written.
  expect(Object.keys(r.apiFailedByStatus ?? {})).toEqual(['503']);
  // Recovered within 10 s of the restart.
  expect(r.apiRecoveryMs!).toBeLessThan(r.outageMs! + 10_000);
  expect(r.eventsLost).toBe(0);
}, 90_000);
