import type { Address as Message } from '@switchboard/proto/generated/switchboard/applications/v1/Address';
import { displayNumber, exchangeOf } from '../numbers/e164.ts';
import type { AddressView } from './repository.ts';

export function toMessage(a: AddressView): Message {
  const common = { type: a.type, value: a.value, applicationId: a.applicationId ?? '', accountId: a.accountId ?? '0' };
  if (a.type === 'number') {
    return {
      ...common,
      number: a.value,
      displayNumber: displayNumber(a.value),
      prefix: exchangeOf(a.value),
      ...(a.city ? { city: a.city } : {}),
      ...(a.state ? { state: a.state } : {}),
      ...(a.country ? { country: a.country } : {}),
      smsEnabled: a.smsEnabled ?? false,
    };
  }
  if (a.type === 'token') return { ...common, channel: a.channel ?? '', token: a.value };
  return { ...common, address: a.value };
}
