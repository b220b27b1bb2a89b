import { SUBJECTS } from '@switchboard/platform';
import type { DeleteApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/DeleteApplicationRequest';
import type { Deps } from '../context';
import { enqueueEvent } from '../outbox/outbox';
import { findOwned } from './repository';

/** Deletes the application and announces it (applications.deleted) in the same transaction. */
export async function deleteApplication(deps: Deps, req: DeleteApplicationRequest__Output): Promise<void> {
  const em = deps.orm.em.fork();
  const app = await findOwned(em, req.accountId, req.id);
  em.remove(app);
  enqueueEvent(em, SUBJECTS.applicationDeleted, { applicationId: app.id, accountId: app.accountId, deletedAt: new Date().toISOString() });
  await em.flush();
  deps.outbox.kick();
}
