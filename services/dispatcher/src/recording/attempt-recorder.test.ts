import { describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/platform';
import { AttemptRecorder } from './attempt-recorder';
import type { Delivery } from '@switchboard/proto';

const logger = createLogger('dispatcher', 'silent');
const attempt = (n: number): Delivery => ({ messageId: `msg_${n}`, attempt: 1, outcome: 'succeeded' });

describe('attempt recorder', () => {
  it('when many attempts arrive, then they are sent in batches and each caller learns when it is stored', async () => {
    const batches: number[] = [];
    const r = new AttemptRecorder(async (a) => void batches.push(a.length), { flushIntervalMs: 20, batchSize: 10, logger });
    await Promise.all(Array.from({ length: 25 }, (_, i) => r.record(attempt(i))));
    expect(batches.reduce((x, y) => x + y, 0)).toBe(25);
    expect(Math.max(...batches)).toBeLessThanOrEqual(10);
    expect(batches.length).toBeLessThanOrEqual(4);
  });

  it('when the sink fails, then records stay buffered and are sent once it recovers', async () => {
    let fail = 3;
    const stored: string[] = [];
    const r = new AttemptRecorder(
      async (a, d) => {
        if (fail-- > 0) throw new Error('webhooks down');
        stored.push(...a.map((x) => x.messageId!), ...d.map((x) => `disable:${x.subscriptionId}`));
      },
      { flushIntervalMs: 5, batchSize: 100, logger },
    );
    let done = false;
    const p = r.record(attempt(1), { subscriptionId: 's1', reason: '410' }).then(() => (done = true));
    await new Promise((res) => setTimeout(res, 100));
    expect(done).toBe(false);
    expect(r.buffered).toBe(1);
    await p;
    expect(stored).toEqual(['msg_1', 'disable:s1']);
  });

  it('when closed, then the buffer is flushed first', async () => {
    const stored: string[] = [];
    const r = new AttemptRecorder(async (a) => void stored.push(...a.map((x) => x.messageId!)), { flushIntervalMs: 10_000, batchSize: 100, logger });
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
