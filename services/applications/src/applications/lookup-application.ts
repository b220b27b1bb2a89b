import { AppError } from '@switchboard/errors';
import type { LookupApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/LookupApplicationRequest';
import type { Deps } from '../context.ts';
import { readById, type ApplicationView } from './repository.ts';
import { readSigningSecrets } from './secret-store.ts';

/**
 * Any application by id, whatever its account (internal callers resolve an application's owner),
 * with the secrets that sign its session POSTs: the current one, then the previous one while valid.
 */
export async function lookupApplication(
  deps: Deps,
  req: LookupApplicationRequest__Output,
): Promise<{ application: ApplicationView; signingSecrets: string[] }> {
  const app = await readById(deps.orm.em, req.id);
  if (!app) throw AppError.notFound('application');
  return { application: app, signingSecrets: await readSigningSecrets(deps.orm.em, deps.secrets, app.id) };
}
