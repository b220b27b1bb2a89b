import { describe, expect, it } from 'vitest';
import { compressBody, decompressBody } from './bodies';

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
