import { AppError } from '@switchboard/platform';
import type { LookupApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/LookupApplicationRequest';
import type { Deps } from '../context';
import { readById, type ApplicationView } from './repository';

/** Any application by id, whatever its account (internal callers resolve an application's owner). */
export async function lookupApplication(deps: Deps, req: LookupApplicationRequest__Output): Promise<ApplicationView> {
  const app = await readById(deps.orm.em, req.id);
  if (!app) throw AppError.notFound('application');
  return app;
}
