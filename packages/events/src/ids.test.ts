import { describe, expect, it } from 'vitest';
import {
  isAccountId,
  isAddressToken,
  isApplicationId,
  isDeliveryId,
  isEnvironmentId,
  isMessageId,
  isRecoveryId,
  isSessionId,
  isSubscriptionId,
} from './ids';

describe('id formats', () => {
  it('when a numeric id is canonical (1 to 18 digits, no leading zero), then it is an account or environment id; zero, leading zeros, signs and 19 digits are not', () => {
    for (const ok of ['1', '7', '33932', '999999999999999999'])
      expect([isAccountId(ok), isEnvironmentId(ok)], ok).toEqual([true, true]);
    for (const bad of ['', '0', '007', '-1', '+1', '1.0', ' 1', '1000000000000000000', 'abc', 7])
      expect([isAccountId(bad), isEnvironmentId(bad)], String(bad)).toEqual([false, false]);
  });

  it("when an id has its kind's prefix and random hex, then it is that kind only", () => {
    const hex24 = '5f0c3d8e9a1b2c3d4e5f6a7b';
    expect(isApplicationId(hex24)).toBe(true);
    expect(isSubscriptionId(`wh_${hex24}`)).toBe(true);
    expect(isDeliveryId(`dlv_${hex24}`)).toBe(true);
    expect(isRecoveryId(`rcv_${hex24}`)).toBe(true);
    expect(isSessionId(`${hex24}01234567`)).toBe(true);
    expect(isAddressToken('ab'.repeat(32))).toBe(true);
    expect(isMessageId('msg_2KWPBgLlAfxdpx2AI54pPJ85')).toBe(true);
    for (const bad of ['app1', hex24.toUpperCase(), hex24.slice(1), `wh_${hex24}`])
      expect(isApplicationId(bad), bad).toBe(false);
    expect(isSubscriptionId(`dlv_${hex24}`)).toBe(false);
    expect(isDeliveryId(`dlv_${hex24}0`)).toBe(false);
    expect(isAddressToken('ab'.repeat(31))).toBe(false);
    expect(isMessageId('msg_short')).toBe(false);
  });
});
