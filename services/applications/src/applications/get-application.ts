import type { GetApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/GetApplicationRequest';
import type { Deps } from '../context.ts';
import { readOwned, type ApplicationView } from './repository.ts';

/** An application of the account by id; another account's is "not found". */
export async function getApplication(deps: Deps, req: GetApplicationRequest__Output): Promise<ApplicationView> {
  // A raw prepared read on the pool (repository.ts): no identity map, so no per-call fork.
  return readOwned(deps.orm.em, req.accountId, req.id);
}
