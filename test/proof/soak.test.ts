// Short version of `npm run proof -- soak`: every store small (1 MiB streams, a 256 KiB registry,
// pruning every 2 s), five times each stream's capacity of mixed traffic from three tenants and one
// whose receiver is dead: nothing healthy refused or lost, the dead tenant's deliveries end as
// backlog_full or expired, call setup holds, the stores stay within their bounds.
import { expect, it } from 'vitest';
import { storeSoak } from '../../proof/scenarios/stores';

it('when five times each store is sent through it, then nothing healthy is refused or lost and every store stays within its bound', async () => {
  const r = await storeSoak({ multiple: 5, rate: 80 });
  console.log(JSON.stringify(r.figures));
  expect(r.failures).toEqual([]);
  expect(r.eventsLost).toBe(0);
  expect(r.figures?.refused).toBe(0);
}, 300_000);
