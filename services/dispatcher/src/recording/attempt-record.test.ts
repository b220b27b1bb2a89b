import { describe, expect, it } from 'vitest';
import type { Job } from '../jobs';
import { attemptRecord, jsonBytes, truncateRecord } from './attempt-record';

const job: Job = {
  v: 1,
  kind: 'notification',
  webhookId: 'msg_abc',
  attempt: 2,
  receivedAt: '2026-03-01T12:00:00.000Z',
  subject: 'cdr.created',
  subscriptionId: 'wh_1',
  event: {
    id: 'e1',
    accountId: '7',
    applicationId: null,
    resource: 'call',
    timestamp: '2026-03-01T12:00:00.000Z',
    data: {},
  },
};
const base = {
  subscriptionId: 'wh_1',
  applicationId: '',
  accountId: '7',
  event: 'cdrCreated',
  targetUrl: 'https://example.com/hook',
};

describe('attemptRecord', () => {
  it('when an attempt is recorded, then kind and outcome go both as text and as proto enums', () => {
    const at = new Date('2026-03-01T12:00:05.000Z');
    expect(
      attemptRecord(job, base, { outcome: 'retrying', statusCode: 503, durationMs: 12.6, error: 'HTTP 503' }, at),
    ).toEqual({
      ...base,
      kind: 'notification',
      deliveryKind: 'DELIVERY_KIND_NOTIFICATION',
      messageId: 'msg_abc',
      attempt: 2,
      statusCode: 503,
      durationMs: 13,
      outcome: 'retrying',
      deliveryOutcome: 'DELIVERY_OUTCOME_RETRYING',
      createdAt: '2026-03-01T12:00:05.000Z',
      error: 'HTTP 503',
    });
    const session = attemptRecord(
      { ...job, kind: 'session' } as unknown as Job,
      base,
      { outcome: 'cancelled', statusCode: 0, durationMs: 0, error: undefined },
      at,
    );
    expect(session).toMatchObject({
      kind: 'session',
      deliveryKind: 'DELIVERY_KIND_SESSION',
      outcome: 'cancelled',
      deliveryOutcome: 'DELIVERY_OUTCOME_CANCELLED',
    });
    expect(session).not.toHaveProperty('error');
  });

  it('when the error text is long, then the record keeps its first 1000 characters', () => {
    expect(
      attemptRecord(job, base, { outcome: 'failed', statusCode: 0, durationMs: 1, error: 'x'.repeat(5000) }).error,
    ).toHaveLength(1000);
  });
});

describe("the receiver's answer in a record", () => {
  const answered = (body: Buffer, tooLarge: boolean) =>
    attemptRecord(job, base, {
      outcome: 'succeeded',
      statusCode: 200,
      durationMs: 5,
      error: undefined,
      response: { contentType: 'application/json', body, tooLarge },
    });

  it('when the answer fits, then the record carries it whole, not cut', () => {
    expect(answered(Buffer.from('{"ok":true}'), false)).toMatchObject({
      responseContentType: 'application/json',
      responseExcerpt: '{"ok":true}',
      responseTruncated: false,
    });
  });

  it('when the answer is longer than 4 KiB, then the excerpt stops at the last whole UTF-8 character and says it was cut', () => {
    // 'é' is two bytes: byte 4096 falls inside one.
    const body = Buffer.from(`x${'é'.repeat(3000)}`);
    const r = answered(body.subarray(0, 4097), true);
    expect(Buffer.byteLength(r.responseExcerpt!)).toBe(4095);
    expect(r.responseExcerpt).not.toContain('\uFFFD');
    expect(r.responseTruncated).toBe(true);
  });

  it('when a record must shrink to fit a NATS message, then the excerpt goes before the free text, marked cut', () => {
    const r = answered(Buffer.from('y'.repeat(4000)), false);
    const small = truncateRecord(r, jsonBytes(r) - 1000);
    expect(small).toMatchObject({ responseExcerpt: '', responseTruncated: true, targetUrl: base.targetUrl });
  });
});
