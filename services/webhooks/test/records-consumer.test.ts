// The dispatchers' attempt records, stored by this service straight from JetStream
// (deliveries.records, the durable consumer the dispatchers create with their stream).
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERIES_STREAM, RECORDS_CONSUMER, RECORDS_SUBJECT } from '@switchboard/contracts';
import { queryDatabase, waitFor } from '../../../test/support';
import { addRecordsStream, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  // The service starts before any dispatcher made the stream: it keeps looking for the consumer.
  h = await startHarness();
  await addRecordsStream(h);
});
afterAll(async () => h?.stop());

const metrics = async () => (await fetch(`http://127.0.0.1:${h.webhooks.opsPort}/metrics`)).text();
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  queryDatabase<T>(h.db.url, text, params);

async function subscription(accountId: string) {
  const res = await h.webhooks.client.createSubscription({
    accountId,
    event: 'cdrCreated',
    resource: 'call',
    targetUrl: 'https://example.com/hook',
  });
  return res.subscription!;
}

const record = (subscriptionId: string, messageId: string, fields: Record<string, unknown> = {}) => ({
  subscriptionId,
  messageId,
  kind: 'notification',
  deliveryKind: 'DELIVERY_KIND_NOTIFICATION',
  event: 'cdrCreated',
  targetUrl: 'https://example.com/hook',
  attempt: 1,
  statusCode: 200,
  durationMs: 7,
  outcome: 'succeeded',
  deliveryOutcome: 'DELIVERY_OUTCOME_SUCCEEDED',
  createdAt: new Date().toISOString(),
  ...fields,
});

const publishBatch = (body: unknown) =>
  h.bus.js.publish(RECORDS_SUBJECT, typeof body === 'string' ? body : JSON.stringify(body));
const deliveries = async (accountId: string, subscriptionId: string) =>
  (await h.webhooks.client.listDeliveries({ accountId, subscriptionId, limit: 100 })).deliveries;
const drained = async () => {
  const i = await h.bus.jsm.consumers.info(DELIVERIES_STREAM, RECORDS_CONSUMER);
  return i.num_pending + i.num_ack_pending === 0;
};

describe('attempt records from JetStream', () => {
  it('when a batch arrives, then its records are stored with their bodies and health, and the batch is acknowledged', async () => {
    const acct = await h.newAccount();
    const sub = await subscription(acct);
    const body = JSON.stringify({ id: 'evt-1', event: 'cdrCreated', data: { callId: 'c-1', note: 'x'.repeat(3000) } });
    await publishBatch({
      attempts: [
        record(sub.id, 'msg_a', { body }),
        record(sub.id, 'msg_b', {
          statusCode: 503,
          outcome: 'retrying',
          deliveryOutcome: 'DELIVERY_OUTCOME_RETRYING',
          error: 'HTTP 503',
        }),
      ],
      disable: [],
    });
    const stored = await waitFor(
      async () => {
        const d = await deliveries(acct, sub.id);
        return d.length === 2 && d;
      },
      { what: 'two records stored', timeoutMs: 15_000 },
    );
    expect(stored.map((d) => [d.messageId, d.statusCode, d.outcome]).sort()).toEqual([
      ['msg_a', 200, 'succeeded'],
      ['msg_b', 503, 'retrying'],
    ]);
    const health = (await h.webhooks.client.getSubscription({ accountId: acct, id: sub.id })).subscription!;
    expect(health.lastAttemptAt).not.toBe('');
    // The body is kept for resends, compressed, and reads back byte for byte.
    const [kept] = await sql<{ body: Buffer; encoding: string; size: number }>(
      `select body, encoding, size from webhooks.delivery_bodies where message_id = 'msg_a'`,
    );
    expect(kept!.encoding).toBe('deflate');
    expect(kept!.size).toBe(Buffer.byteLength(body));
    expect(kept!.body.length).toBeLessThan(body.length / 2);
    expect(inflateRawSync(kept!.body).toString('utf8')).toBe(body);
    await waitFor(drained, { what: 'records consumer drained' });
  });

  it('when a batch holds a record that is refused, then the others are stored and it is dropped; a 410 disables its subscription', async () => {
    const acct = await h.newAccount();
    const [sub, gone] = await Promise.all([subscription(acct), subscription(acct)]);
    await publishBatch({
      attempts: [
        record(sub.id, 'ok_1'),
        record(sub.id, 'bad', { attempt: 'first' }),
        record(sub.id, 'ok_2'),
        record(gone.id, 'gone_1', { statusCode: 410, outcome: 'failed', deliveryOutcome: 'DELIVERY_OUTCOME_FAILED' }),
      ],
      disable: [{ subscriptionId: gone.id, reason: 'target answered 410 Gone' }],
    });
    await waitFor(async () => (await deliveries(acct, sub.id)).length === 2, {
      what: 'the two valid records',
      timeoutMs: 15_000,
    });
    expect((await deliveries(acct, sub.id)).map((d) => d.messageId).sort()).toEqual(['ok_1', 'ok_2']);
    const off = (await h.webhooks.client.getSubscription({ accountId: acct, id: gone.id })).subscription!;
    expect(off.enabled).toBe(false);
    expect(off.disabledReason).toBe('target answered 410 Gone');
    // webhookDisabled went into the outbox with the change (and out to JetStream).
    await waitFor(async () => (await sql(`select 1 from webhooks.outbox`)).length === 0, { what: 'outbox relayed' });
    expect(await metrics()).toMatch(/webhooks_attempt_records_total\{outcome="rejected"\} 1\b/);
    await waitFor(drained, { what: 'records consumer drained' });
  });

  it('when Postgres refuses one record of a batch, then the others are stored and only it is dropped', async () => {
    const acct = await h.newAccount();
    const sub = await subscription(acct);
    // A lone surrogate passes the checks but not Postgres's JSON (SQLSTATE 22P05); out-of-range numbers are refused before.
    await publishBatch({
      attempts: [
        record(sub.id, 'fine_1'),
        record(sub.id, 'lone_surrogate', {
          error: 'broken \ud800 text',
          outcome: 'retrying',
          deliveryOutcome: 'DELIVERY_OUTCOME_RETRYING',
        }),
        record(sub.id, 'huge', { attempt: 2 ** 40 }),
        record(sub.id, 'fine_2'),
      ],
      disable: [],
    });
    await waitFor(async () => (await deliveries(acct, sub.id)).length === 2, {
      what: 'the two storable records',
      timeoutMs: 15_000,
    });
    await waitFor(drained, { what: 'records consumer drained' });
    expect((await deliveries(acct, sub.id)).map((d) => d.messageId).sort()).toEqual(['fine_1', 'fine_2']);
  });

  it('when a message is not a record batch, then it is dropped and the batches after it are stored', async () => {
    const acct = await h.newAccount();
    const sub = await subscription(acct);
    await publishBatch('not json');
    await publishBatch({ attempts: [1, 2], disable: [] });
    await publishBatch({ attempts: [record(sub.id, 'after_garbage')], disable: [] });
    await waitFor(async () => (await deliveries(acct, sub.id)).length === 1, {
      what: 'the batch after the garbage',
      timeoutMs: 15_000,
    });
    await waitFor(drained, { what: 'records consumer drained' });
    expect(await metrics()).toMatch(/webhooks_record_batches_total\{outcome="rejected"\} 2\b/);
  });
});
