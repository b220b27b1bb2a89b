// Short version of `npm run proof -- kill-dispatcher`: a dispatcher replica is killed with SIGKILL
// in the middle of a burst of events; every event still arrives, duplicates only share a webhook-id.
import { expect, it } from 'vitest';
import type { Cluster } from '../../proof/cluster';
import type { Receiver } from '../../proof/lib/receiver';
import { useClusterWithReceiver } from './fixture';
import { killReplica } from '../../proof/scenarios/faults';

let cluster: Cluster;
let rx: Receiver;

useClusterWithReceiver({ dispatchers: 2, privatePostgres: false }, (f) => ({ cluster, rx } = f));

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
  // The dispatcher is not on the API's path: its kill fails no request. On a machine running
  // another proof beside this one, a call may pass its deadline (503 when a gRPC call passed its
  // 5 s, 0 when the client gave up after 10 s): a few of those are load, anything else is a defect.
  const { 503: unavailable = 0, 0: timedOut = 0, ...others } = r.apiFailedByStatus ?? {};
  expect(others).toEqual({});
  expect(unavailable + timedOut).toBeLessThanOrEqual(Math.ceil((r.apiRequests ?? 0) * 0.02));
}, 90_000);
