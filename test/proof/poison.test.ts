// Short version of `npm run proof -- poison`: 1,000 events the services refuse for good among 200
// valid ones, on a cluster of two dispatchers; every valid one arrives, every poison event is
// dead-lettered, the events consumer's backlog drains.
import { expect, it } from 'vitest';
import type { Cluster } from '../../proof/cluster';
import type { Receiver } from '../../proof/lib/receiver';
import { useClusterWithReceiver } from './fixture';
import { poisonEvents } from '../../proof/scenarios/poison';

let cluster: Cluster;
let rx: Receiver;

useClusterWithReceiver({ dispatchers: 2, privatePostgres: false }, (f) => ({ cluster, rx } = f));

it('when 1,000 poison events are interleaved with 200 valid ones, then every valid one is delivered and the backlog drains', async () => {
  const r = await poisonEvents(cluster, rx, { factor: 0.3 }, 1000, 5);
  expect(r.failures).toEqual([]);
  expect(r.figures).toMatchObject({ validPublished: 200, validDelivered: 200, deadLettered: 1000 });
  expect(r.eventsLost).toBe(0);
}, 150_000);
