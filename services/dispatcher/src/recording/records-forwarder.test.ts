import { describe, expect, it } from 'vitest';
import { AppError, createLogger, type JsMsg } from '@switchboard/platform';
import type { Delivery } from '@switchboard/proto';
import { createMetrics } from '../metrics';
import { encodeBatch, forwardRecords } from './records-forwarder';

const logger = createLogger('dispatcher', 'silent');
const metrics = createMetrics(() => ({ closed: 0, open: 0, half_open: 0 }));

function fakeMsg(data: string, deliveryCount = 1) {
  const calls: string[] = [];
  const msg = {
    subject: 'deliveries.records',
    seq: 1,
    data: Buffer.from(data),
    info: { deliveryCount },
    ack: () => calls.push('ack'),
    nak: (d?: number) => calls.push(`nak:${d}`),
    term: () => calls.push('term'),
  } as unknown as JsMsg;
  return { msg, calls };
}

const a = (id: string): Delivery => ({ messageId: id, kind: 'notification', attempt: 1, outcome: 'succeeded' });

describe('records forwarder', () => {
  it('when the batch is stored, then it is acknowledged', async () => {
    const stored: string[] = [];
    const { msg, calls } = fakeMsg(encodeBatch({ attempts: [a('m1'), a('m2')], disable: [{ subscriptionId: 'wh_1', reason: '410' }] }));
    await forwardRecords(msg, { store: async (x, d) => void stored.push(...x.map((y) => y.messageId!), ...d.map((y) => y.subscriptionId)), metrics, logger });
    expect(stored).toEqual(['m1', 'm2', 'wh_1']);
    expect(calls).toEqual(['ack']);
  });

  it('when the webhooks service is down, then the batch is handed back with a growing delay', async () => {
    const down = async () => {
      throw new AppError('unavailable', 'down');
    };
    const first = fakeMsg(encodeBatch({ attempts: [a('m1')], disable: [] }), 1);
    await forwardRecords(first.msg, { store: down, metrics, logger });
    const later = fakeMsg(encodeBatch({ attempts: [a('m1')], disable: [] }), 4);
    await forwardRecords(later.msg, { store: down, metrics, logger });
    expect(first.calls).toEqual(['nak:250']);
    expect(later.calls).toEqual(['nak:2000']);
  });

  it('when one record is rejected as invalid, then the others are stored and the batch acknowledged', async () => {
    const stored: string[] = [];
    const { msg, calls } = fakeMsg(encodeBatch({ attempts: [a('m1'), a('bad'), a('m2')], disable: [] }));
    await forwardRecords(msg, {
      store: async (x) => {
        if (x.some((y) => y.messageId === 'bad')) throw AppError.invalid([{ field: 'attempts[0].kind', message: 'bad' }]);
        stored.push(...x.map((y) => y.messageId!));
      },
      metrics,
      logger,
    });
    expect(stored).toEqual(['m1', 'm2']);
    expect(calls).toEqual(['ack']);
  });

  it('when the message is not a record batch, then it is terminated', async () => {
    for (const body of ['nonsense', '[]', '{"attempts":[]}', '{"attempts":[1],"disable":[]}', '{"attempts":[],"disable":[{"subscriptionId":1,"reason":"x"}]}']) {
      const { msg, calls } = fakeMsg(body);
      let stored = false;
      await forwardRecords(msg, { store: async () => void (stored = true), metrics, logger });
      expect(calls, body).toEqual(['term']);
      expect(stored, body).toBe(false);
    }
  });
});
