import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { decodeRecordBatch } from '@switchboard/contracts';
import { startNatsServer, type NatsServer } from '../../../../test/support';
import { ThrottledCounts } from './throttled-counts';

const logger = createLogger('dispatcher', 'silent');
const SUBJECT = 'test.throttled';

describe('counts of throttled deliveries on their way to the statistics', () => {
  let nats: NatsServer;
  let open: NatsHandle;
  let closed: NatsHandle;
  beforeAll(async () => {
    nats = await startNatsServer();
    open = await connectNats(nats.url, logger, 'open');
    closed = await connectNats(nats.url, logger, 'closed');
    await closed.close();
  });
  afterAll(async () => {
    await open?.close();
    await nats?.destroy();
  });

  it('when they cannot be sent, then at most maxEntries (subscription, minute) counts are kept, the rest dropped and counted, and the kept ones go once sending works', async () => {
    let conn = closed;
    let dropped = 0;
    const seen: unknown[] = [];
    const sub = open.nc.subscribe(SUBJECT, { callback: (_e, m) => void seen.push(decodeRecordBatch(m.data)) });
    const counts = new ThrottledCounts(async (json) => conn.nc.publish(SUBJECT, json), {
      flushIntervalMs: 60_000,
      maxEntries: 3,
      logger,
      onDropped: (n) => (dropped += n),
      now: () => Date.UTC(2026, 0, 1, 10, 0, 30),
    });
    for (const s of ['wh_a', 'wh_a', 'wh_b', 'wh_c', 'wh_d', 'wh_e']) counts.add(s);
    expect(counts.size).toBe(3);
    expect(dropped).toBe(2);
    await counts.flush();
    // NATS refused (closed connection): the counts are kept for the next flush, still bounded
    expect(counts.size).toBe(3);
    expect(seen).toHaveLength(0);
    conn = open;
    await counts.close();
    await open.nc.flush();
    expect(counts.size).toBe(0);
    expect(seen).toEqual([
      {
        attempts: [],
        disable: [],
        throttled: [
          { subscriptionId: 'wh_a', at: '2026-01-01T10:00:00.000Z', count: 2 },
          { subscriptionId: 'wh_b', at: '2026-01-01T10:00:00.000Z', count: 1 },
          { subscriptionId: 'wh_c', at: '2026-01-01T10:00:00.000Z', count: 1 },
        ],
      },
    ]);
    sub.unsubscribe();
  });
});
