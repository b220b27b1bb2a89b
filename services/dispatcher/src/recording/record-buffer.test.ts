// The memory bound of the records held until JetStream has them (RECORD_BUFFER_MAX_BYTES), with a
// small bound, against a real NATS server: while the records' stream is missing every publish is
// refused, so the recorders keep retrying and hold their records; the consumers stop taking
// messages at the bound; nothing is dropped, and everything goes through once the stream is there.
import { describe, expect, it } from 'vitest';
import { AckPolicy } from '@nats-io/jetstream';
import { ensureConsumer, ensureStream, runConsumerLoop, type NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { SESSION_RECORDS_SUBJECT, type SessionRecord } from '@switchboard/contracts';
import type { Delivery } from '@switchboard/proto';
import { useNatsConnection, waitFor } from '../../../../test/support';
import { AttemptRecorder } from './attempt-recorder';
import { RecordBuffer, whileRecordsFit } from './record-buffer';
import { SessionRecorder } from './session-recorder';

const logger = createLogger('dispatcher', 'silent');
let bus: NatsHandle;
useNatsConnection('records', (b) => void (bus = b));

/** An attempt record carrying a body of `bytes` bytes (kept for resends, up to 256 KiB in production). */
const withBody = (n: number, bytes: number): Delivery => ({
  messageId: `msg_${n}`,
  attempt: 1,
  outcome: 'failed',
  body: 'x'.repeat(bytes),
});

describe('the record buffer', () => {
  it('when publishes keep failing, then the records held pass the bound only by what was already under way, none is dropped, and all are stored once the stream is back', async () => {
    const buffer = new RecordBuffer(8 * 1024);
    const subject = 'test.records.attempts';
    const recorder = new AttemptRecorder(
      async (_a, _d, json) => {
        await bus.js.publish(subject, json);
      },
      { flushIntervalMs: 5, batchSize: 10, logger, buffer },
    );
    const sessions = new SessionRecorder(bus.js, { logger, buffer });
    // Six attempt records of 2 KiB and two session records: 14 KiB held, the bound is 8 KiB.
    const stored = Array.from({ length: 6 }, (_, i) => recorder.record(withBody(i, 2048)));
    const session = { id: 'sess-1', attempts: [{ error: 'y'.repeat(1024) }] } as unknown as SessionRecord;
    stored.push(sessions.record(session), sessions.record({ ...session, id: 'sess-2' }));
    let settled = 0;
    for (const p of stored) void p.then(() => settled++);
    let room = false;
    void buffer.whenRoom().then(() => (room = true));
    // Publishes are refused (no stream), retried with backoff: everything stays held.
    await new Promise((r) => setTimeout(r, 600));
    expect(buffer.full).toBe(true);
    expect(buffer.held).toBeGreaterThan(14 * 1024);
    expect(settled).toBe(0);
    expect(room).toBe(false);

    // The streams come (back): every record is stored, the memory given back, room made.
    await ensureStream(bus.jsm, { name: 'TEST_RECORDS', subjects: [subject, SESSION_RECORDS_SUBJECT] });
    await Promise.all(stored);
    expect(buffer.held).toBe(0);
    expect(room).toBe(true);
    const info = await bus.jsm.streams.info('TEST_RECORDS');
    // Every attempt record went out (in one or more batches), and both session records.
    const batches = info.state.messages - 2;
    expect(batches).toBeGreaterThanOrEqual(1);
    let records = 0;
    for (let seq = 1; seq <= info.state.last_seq; seq++) {
      const m = await bus.jsm.streams.getMessage('TEST_RECORDS', { seq });
      if (m?.subject === subject) records += (m.json<{ attempts: unknown[] }>().attempts ?? []).length;
    }
    expect(records).toBe(6);
    await Promise.all([recorder.close(), sessions.close()]);
  }, 30_000);

  it('when the buffer is full, then a consumer stops taking messages, and takes them all once records are stored', async () => {
    const buffer = new RecordBuffer(1024);
    await ensureStream(bus.jsm, { name: 'TEST_WORK', subjects: ['test.work'] });
    await ensureConsumer(bus.jsm, 'TEST_WORK', { durable_name: 'work', ack_policy: AckPolicy.Explicit });
    for (let i = 0; i < 40; i++) await bus.js.publish('test.work', String(i));
    // Records of earlier attempts still unpublished fill the buffer.
    buffer.hold(4096);
    const handled: string[] = [];
    let waits = 0;
    const loop = runConsumerLoop({
      js: bus.js,
      stream: 'TEST_WORK',
      durable: 'work',
      logger,
      concurrency: 4,
      handle: whileRecordsFit(
        buffer,
        async (m) => {
          handled.push(m.string());
          m.ack();
        },
        () => waits++,
      ),
    });
    try {
      await loop.started;
      await new Promise((r) => setTimeout(r, 800));
      const held = await bus.jsm.consumers.info('TEST_WORK', 'work');
      console.log(
        `record buffer full: ${handled.length} handled, ${held.num_ack_pending} taken and waiting, ${held.num_pending} left in the stream`,
      );
      expect(handled).toEqual([]);
      // Only what the loop had pulled before it stopped is taken: at most its 4 slots and one pull
      // of 10 (runConsumerLoop's max_messages).
      expect(held.num_pending).toBeGreaterThanOrEqual(40 - 4 - 10);
      expect(waits).toBeGreaterThan(0);

      buffer.release(4096);
      await waitFor(() => handled.length === 40, { what: 'every message handled', timeoutMs: 10_000 });
      expect(new Set(handled).size).toBe(40);
    } finally {
      if (buffer.full) buffer.release(buffer.held);
      await loop.stop();
    }
  }, 30_000);

  it('when the process stops while handlers wait for room, then they return without handling their message, and the consumer stops at once', async () => {
    const buffer = new RecordBuffer(10);
    await ensureStream(bus.jsm, { name: 'TEST_STOP', subjects: ['test.stop'] });
    await ensureConsumer(bus.jsm, 'TEST_STOP', { durable_name: 'stop', ack_policy: AckPolicy.Explicit });
    for (let i = 0; i < 5; i++) await bus.js.publish('test.stop', String(i));
    buffer.hold(100);
    let handled = 0;
    const loop = runConsumerLoop({
      js: bus.js,
      stream: 'TEST_STOP',
      durable: 'stop',
      logger,
      concurrency: 2,
      handle: whileRecordsFit(buffer, async (m) => {
        handled++;
        m.ack();
      }),
    });
    await loop.started;
    await waitFor(async () => (await bus.jsm.consumers.info('TEST_STOP', 'stop')).num_ack_pending > 0, {
      what: 'messages taken',
    });
    buffer.stop();
    const t0 = Date.now();
    await loop.stop();
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(handled).toBe(0);
    // Nothing acknowledged: JetStream still holds all five for another consumer.
    const info = await bus.jsm.consumers.info('TEST_STOP', 'stop');
    expect(info.ack_floor.stream_seq).toBe(0);
  });
});
