import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { generateSecret, isValidSecret, secretKey, signatureHeaders, verifySignature } from './signing';

describe('Standard Webhooks signing', () => {
  // Test vector from the Standard Webhooks reference libraries.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';

  it('when signing the reference vector, then the reference signature comes out', () => {
    const h = signatureHeaders([secretKey(secret)], id, body, 1614265330 * 1000);
    expect(h).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('when signing, then the HMAC covers "id.timestamp.body" with the decoded key', () => {
    const key = secretKey(secret);
    const h = signatureHeaders([key], 'msg_1', '{}', 2_000_000);
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update('msg_1.2000.{}')
      .digest('base64');
    expect(h['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('when two secrets are valid (rotation), then both signatures are sent and each verifies', () => {
    const a = generateSecret();
    const b = generateSecret();
    const now = Date.now();
    const h = signatureHeaders([secretKey(a), secretKey(b)], 'msg_2', body, now);
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifySignature(a, { ...h }, body, now)).toBe(true);
    expect(verifySignature(b, { ...h }, body, now)).toBe(true);
    expect(verifySignature(generateSecret(), { ...h }, body, now)).toBe(false);
    expect(verifySignature(a, { ...h }, `${body} `, now)).toBe(false);
    expect(verifySignature(a, { ...h }, body, now + 3_600_000)).toBe(false);
  });

  it('when a secret is malformed, then it is rejected', () => {
    expect(isValidSecret('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(false);
    expect(isValidSecret('whsec_short')).toBe(false);
    expect(isValidSecret('whsec_!!!notbase64!!!')).toBe(false);
    expect(isValidSecret(generateSecret())).toBe(true);
  });
});
