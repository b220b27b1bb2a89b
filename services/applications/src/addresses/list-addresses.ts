import type { ListAddressesRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ListAddressesRequest';
import { readOwned as readApplication } from '../applications/repository.ts';
import type { Deps } from '../context.ts';
import { listOfApplication, type AddressView } from './repository.ts';
import { parseType } from './rules.ts';

/** The addresses of one of the account's applications, all or of one type; another account's application is "not found". */
export async function listAddresses(deps: Deps, req: ListAddressesRequest__Output): Promise<AddressView[]> {
  const type = req.type === undefined ? undefined : parseType(req.type);
  await readApplication(deps.orm.em, req.accountId, req.applicationId);
  const all = await listOfApplication(deps.orm.em, req.accountId, req.applicationId);
  return type ? all.filter((a) => a.type === type) : all;
}
