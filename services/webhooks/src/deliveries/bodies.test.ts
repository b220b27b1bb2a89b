import { describe, expect, it } from 'vitest';
import { compressBody, decompressBody, SHOWN_BODY_BYTES, sessionOfNotification, shownBody } from './bodies';

describe('kept bodies', () => {
  it('when bodies of any size are compressed, then they read back byte for byte', () => {
    for (const body of [
      '',
      '{}',
      JSON.stringify({ text: 'ünïcödé ✓', n: 1 }),
      JSON.stringify({ data: 'abc'.repeat(200) }),
      JSON.stringify({ big: 'x'.repeat(200_000), tail: 'é' }),
    ]) {
      expect(decompressBody(compressBody(body))).toBe(body);
    }
  });

  it('when a notification body is compressed, then it takes less than half its size', () => {
    const body = JSON.stringify({
      id: 'evt_1',
      event: 'cdrCreated',
      resource: 'call',
      timestamp: new Date().toISOString(),
      accountId: '12',
      applicationId: null,
      data: { callId: 'c-1', from: '+14075550100', to: '+14075550199', duration: 62 },
      payload: { customer: 'acme' },
      name: null,
    });
    expect(compressBody(body).length).toBeLessThan(Buffer.byteLength(body) * 0.9);
    const repetitive = JSON.stringify({
      rows: Array.from({ length: 50 }, (_, i) => ({ id: i, status: 'delivered', network: 'SMS' })),
    });
    expect(compressBody(repetitive).length).toBeLessThan(Buffer.byteLength(repetitive) / 2);
  });
});

describe('a kept body as one record shows it', () => {
  it('when a body is at most the limit, then it reads whole with its size', () => {
    const body = JSON.stringify({ event: 'test', data: { message: 'ünïcödé' } });
    expect(shownBody(compressBody(body))).toEqual({ body, bytes: Buffer.byteLength(body), truncated: false });
  });

  it('when a body is longer, then it is cut on a character boundary and says so', () => {
    const body = `${'a'.repeat(9)}é${'b'.repeat(20)}`;
    // 'é' is two bytes: a cut after 10 bytes would split it, so it is dropped whole.
    expect(shownBody(compressBody(body), 10)).toEqual({ body: 'a'.repeat(9), bytes: 31, truncated: true });
    const big = JSON.stringify({ big: 'x'.repeat(40_000) });
    const shown = shownBody(compressBody(big));
    expect(shown.truncated).toBe(true);
    expect(shown.bytes).toBe(Buffer.byteLength(big));
    expect(shown.body).toBe(big.slice(0, SHOWN_BODY_BYTES));
  });

  it('when a notification body is kept, then the session it is about is its data.sessionId, and nothing else', () => {
    const body = (data: unknown, payload: unknown = null) => JSON.stringify({ id: 'evt_1', data, payload });
    expect(sessionOfNotification(body({ sessionId: 'ses-1', n: 1 }))).toBe('ses-1');
    // A sessionId elsewhere (the payload, a nested object) is not the notification's session.
    expect(sessionOfNotification(body({ n: 1 }, { sessionId: 'ses-2' }))).toBeUndefined();
    expect(sessionOfNotification(body({ call: { sessionId: 'ses-3' } }))).toBeUndefined();
    for (const id of ['', 42, null, 'x'.repeat(401)])
      expect(sessionOfNotification(body({ sessionId: id }))).toBeUndefined();
    expect(sessionOfNotification('{"data": {"sessionId": "unterminated')).toBeUndefined();
  });
});
