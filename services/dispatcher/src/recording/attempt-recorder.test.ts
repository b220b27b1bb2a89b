import { describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import { AttemptRecorder } from './attempt-recorder';
import type { Delivery } from '@switchboard/proto';

const logger = createLogger('dispatcher', 'silent');
const attempt = (n: number): Delivery => ({ messageId: `msg_${n}`, attempt: 1, outcome: 'succeeded' });

describe('attempt recorder', () => {
  it('when many attempts arrive, then they are sent in batches and each caller learns when it is stored', async () => {
    const batches: number[] = [];
    const r = new AttemptRecorder(async (a) => void batches.push(a.length), {
      flushIntervalMs: 20,
      batchSize: 10,
      logger,
    });
    await Promise.all(Array.from({ length: 25 }, (_, i) => r.record(attempt(i))));
    expect(batches.reduce((x, y) => x + y, 0)).toBe(25);
    expect(Math.max(...batches)).toBeLessThanOrEqual(10);
    expect(batches.length).toBeLessThanOrEqual(4);
  });

  it('when the sink fails, then records stay buffered and are sent once it recovers', async () => {
    let fail = 3;
    const stored: string[] = [];
    /** What the caller saw at each failure of the sink. */
    const whileFailing: [boolean, number][] = [];
    const r = new AttemptRecorder(
      async (a, d) => {
        if (fail-- > 0) {
          whileFailing.push([done, r.buffered]);
          throw new Error('webhooks down');
        }
        stored.push(...a.map((x) => x.messageId!), ...d.map((x) => `disable:${x.subscriptionId}`));
      },
      { flushIntervalMs: 5, batchSize: 100, logger },
    );
    let done = false;
    const p = r.record(attempt(1), { subscriptionId: 's1', reason: '410' }).then(() => (done = true));
    await p;
    expect(whileFailing).toEqual(Array(3).fill([false, 1]));
    expect(stored).toEqual(['msg_1', 'disable:s1']);
  });

  it('when closed, then the buffer is flushed first', async () => {
    const stored: string[] = [];
    const r = new AttemptRecorder(async (a) => void stored.push(...a.map((x) => x.messageId!)), {
      flushIntervalMs: 10_000,
      batchSize: 100,
      logger,
    });
    void r.record(attempt(1));
    await r.close();
    expect(stored).toEqual(['msg_1']);
  });

  it('when batches pile up, then at most `concurrency` are in flight', async () => {
    let inflight = 0;
    let peak = 0;
    const r = new AttemptRecorder(
      async () => {
        peak = Math.max(peak, ++inflight);
        // a slow sink (simulated work, not a wait): batches pile up behind it
        await new Promise((res) => setTimeout(res, 20));
        inflight--;
      },
      { flushIntervalMs: 5, batchSize: 10, concurrency: 3, logger },
    );
    await Promise.all(Array.from({ length: 100 }, (_, i) => r.record(attempt(i))));
    expect(peak).toBe(3);
    expect(r.buffered).toBe(0);
  });
});

describe('attempt recorder: batches by size', () => {
  const big = (n: number, url: string): Delivery => ({
    messageId: `msg_${n}`,
    attempt: 1,
    outcome: 'failed',
    targetUrl: url,
    error: 'HTTP 500',
  });
  const encoded = (a: Delivery[], d: unknown[]) => Buffer.byteLength(JSON.stringify({ attempts: a, disable: d }));

  it('when records are large, then every batch stays under the byte limit while the count limit allows more', async () => {
    const sizes: number[] = [];
    const url = `https://example.com/${'é'.repeat(2000)}`; // ~4 kB per record
    const r = new AttemptRecorder(async (a, d) => void sizes.push(encoded(a, d)), {
      flushIntervalMs: 5,
      batchSize: 250,
      logger,
      maxBatchBytes: () => 20_000,
    });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        r.record(big(i, url), i % 7 === 0 ? { subscriptionId: `wh_${i}`, reason: 'gone' } : undefined),
      ),
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20_000);
    expect(sizes.length).toBeGreaterThanOrEqual(12);
  });

  it('when one record is larger than the limit, then it is stored truncated and marked', async () => {
    const stored: Delivery[] = [];
    const r = new AttemptRecorder(async (a) => void stored.push(...a), {
      flushIntervalMs: 5,
      batchSize: 250,
      logger,
      maxBatchBytes: () => 1000,
    });
    await r.record(big(1, `https://example.com/${'ü'.repeat(2040)}`));
    expect(stored).toHaveLength(1);
    expect(Buffer.byteLength(JSON.stringify(stored[0]))).toBeLessThanOrEqual(1000);
    expect(stored[0]!.error).toMatch(/^\[record truncated to fit a NATS message\] HTTP 500/);
    expect(stored[0]!.targetUrl!.startsWith('https://example.com/ü')).toBe(true);
    expect(stored[0]).toMatchObject({ messageId: 'msg_1', attempt: 1, outcome: 'failed' });
  });

  it('when the sink refuses a batch as too large, then it is split until it goes through, and nothing blocks', async () => {
    const limit = { bytes: 1_000_000 };
    const sent: number[] = [];
    const r = new AttemptRecorder(
      async (a, d) => {
        if (encoded(a, d) > 3000) throw new Error('payload max_payload size exceeded');
        sent.push(a.length);
      },
      { flushIntervalMs: 5, batchSize: 250, logger, maxBatchBytes: () => limit.bytes },
    );
    // The server's limit is smaller than the recorder believes (it shrank after a reconnect).
    await Promise.all(Array.from({ length: 40 }, (_, i) => r.record(big(i, `https://example.com/${'x'.repeat(200)}`))));
    expect(sent.reduce((x, y) => x + y, 0)).toBe(40);
    expect(r.buffered).toBe(0);
    // A single record the sink refuses even truncated is dropped, and the next ones are stored.
    limit.bytes = 400;
    const after: string[] = [];
    const r2 = new AttemptRecorder(
      async (a) => {
        if (a.some((x) => x.messageId === 'msg_huge')) throw new Error('max_payload size exceeded');
        after.push(...a.map((x) => x.messageId!));
      },
      { flushIntervalMs: 5, batchSize: 250, logger, maxBatchBytes: () => limit.bytes },
    );
    await Promise.all([
      r2.record({ ...big(0, 'https://example.com/'), messageId: 'msg_huge' }),
      r2.record(big(1, 'https://example.com/')),
    ]);
    expect(after).toEqual(['msg_1']);
    expect(r2.buffered).toBe(0);
  });
});
