// Attempt records travel in batches through JetStream (deliveries.records), and NATS refuses a
// message over its max_payload. On a server with a small max_payload, batches are cut by size, a
// record too large on its own is stored truncated, and every record arrives: nothing blocks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startNatsServer,
  startReceiver,
  startServices,
  waitFor,
  type NatsServer,
  type Receiver,
} from '../../../test/support';
import { CONSUMERS, DELIVERIES_STREAM } from '../src/streams';
import { cdrEvent, TEST_DISPATCHER_ENV, type Harness } from './harness';

const MAX_PAYLOAD = 4096;
let nats: NatsServer;
let h: Harness;
let rx: Receiver;

beforeAll(async () => {
  nats = await startNatsServer({ maxPayload: MAX_PAYLOAD });
  h = await startServices({
    webhooks: true,
    nats,
    env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' },
    dispatcherEnv: TEST_DISPATCHER_ENV,
  });
  rx = await startReceiver();
  // Records gather for a while, so a batch by count (250) would be far over the limit.
  await h.startDispatcher({ RECORD_FLUSH_INTERVAL: '300ms' });
});
afterAll(async () => {
  await h?.stop();
  await nats?.destroy();
  await rx?.close();
});

describe('attempt record batches on a server with a small max_payload', () => {
  it('when many records and one larger than a message wait, then every record is stored, the large ones truncated', async () => {
    const acct = await h.newAccount();
    // A target URL of multi-byte characters: its record alone is larger than a batch may be.
    const longUrl = rx.url(`/long/${'ü'.repeat(1400)}`);
    const long = await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: longUrl });
    const short = await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url('/short') });
    const events = 60;
    for (let i = 0; i < events; i++) await h.publish('cdr.created', cdrEvent(acct, { id: `rb-${i}` }));
    await waitFor(() => rx.at('/short').length >= events, { timeoutMs: 30_000, what: 'deliveries to the short URL' });

    const list = async (subscriptionId: string) =>
      (await h.webhooks.client.listDeliveries({ accountId: acct, subscriptionId, limit: 100 })).deliveries;
    await waitFor(async () => (await list(short.id)).length === events && (await list(long.id)).length === events, {
      timeoutMs: 30_000,
      what: 'every record stored',
    });
    const longRecords = await list(long.id);
    for (const d of longRecords) {
      expect(d.error).toMatch(/^\[record truncated to fit a NATS message\]/);
      expect(longUrl.startsWith(d.targetUrl)).toBe(true);
      expect(d.targetUrl.length).toBeLessThan(longUrl.length);
      expect(d.outcome).toBe('succeeded');
    }
    expect((await list(short.id)).every((d) => !d.error && d.targetUrl === rx.url('/short'))).toBe(true);
    const c = await h.bus.jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.records);
    expect(c.num_pending + c.num_ack_pending).toBe(0);
  });
});
