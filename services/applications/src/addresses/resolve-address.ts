import { AppError } from '@switchboard/platform';
import type { ResolveAddressRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ResolveAddressRequest';
import type { Deps } from '../context';
import { normaliseNumber } from '../numbers/e164';
import { readByValue } from './repository';
import { normaliseSipUri } from './rules';

/**
 * Internal (dispatcher): the application and account that own a dialled address, an E.164 number
 * (with or without "+", "tel:", separators) or a SIP URI (host in any case). NOT_FOUND when nobody does.
 */
export async function resolveAddress(deps: Deps, req: ResolveAddressRequest__Output): Promise<{ applicationId: string; accountId: string }> {
  const input = req.address.trim();
  const sip = /^(?:[^<]*<)?sips?:/i.test(input);
  const value = sip ? normaliseSipUri(input) : normaliseNumber(input);
  const a = value ? await readByValue(deps.orm.em, sip ? 'sip' : 'number', value) : undefined;
  if (!a?.applicationId || !a.accountId) throw AppError.notFound('address');
  return { applicationId: a.applicationId, accountId: a.accountId };
}
