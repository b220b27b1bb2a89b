import type { GetAddressRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/GetAddressRequest';
import type { Deps } from '../context.ts';
import { readOwned, type AddressView } from './repository.ts';
import { addressOf } from './rules.ts';

/** One address of one of the account's applications; anyone else's is "not found". */
export async function getAddress(deps: Deps, req: GetAddressRequest__Output): Promise<AddressView> {
  const { type, value } = addressOf(req);
  return readOwned(deps.orm.em, req.accountId, req.applicationId, type, value);
}
