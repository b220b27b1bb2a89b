import { dialledAddress } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import type { ResolveAddressRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ResolveAddressRequest';
import type { Deps } from '../context.ts';
import { readByValue } from './repository.ts';

/**
 * Internal (dispatcher): the application and account that own a dialled address, an E.164 number
 * (with or without "+", "tel:", separators) or a SIP URI (host in any case). NOT_FOUND when nobody does.
 */
export async function resolveAddress(
  deps: Deps,
  req: ResolveAddressRequest__Output,
): Promise<{ applicationId: string; accountId: string }> {
  const dialled = dialledAddress(req.address);
  const a = dialled ? await readByValue(deps.orm.em, dialled.type, dialled.address) : undefined;
  if (!a?.applicationId || !a.accountId) throw AppError.notFound('address');
  return { applicationId: a.applicationId, accountId: a.accountId };
}
