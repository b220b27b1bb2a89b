import type { AuditContext } from '@switchboard/db';
import { auditWithFlush } from '../audit/repository.ts';
import { SUBJECTS } from '@switchboard/events';
import type { DeleteApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/DeleteApplicationRequest';
import { announceChange } from '../addresses/events.ts';
import { valuesOfApplication } from '../addresses/repository.ts';
import type { Deps } from '../context.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import { applicationPath, findOwned } from './repository.ts';

/**
 * Deletes the application and announces it (applications.deleted) in the same transaction. Its
 * numbers go back to the inventory and its tokens and SIP addresses go with it (foreign keys),
 * each announced with addresses.changed.
 */
export async function deleteApplication(
  deps: Deps,
  req: DeleteApplicationRequest__Output,
  audit?: AuditContext,
): Promise<void> {
  await deps.orm.em.fork().transactional(async (em) => {
    const app = await findOwned(em, req.accountId, req.id);
    for (const a of await valuesOfApplication(em, app.id)) {
      announceChange(em, {
        type: a.type,
        address: a.value,
        applicationId: null,
        previousApplicationId: app.id,
        accountId: app.accountId,
      });
    }
    em.remove(app);
    auditWithFlush(
      em,
      {
        accountId: app.accountId,
        action: 'application.delete',
        target: applicationPath(app.id),
        outcome: 'success',
      },
      audit,
    );
    enqueueEvent(em, SUBJECTS.applicationDeleted, {
      applicationId: app.id,
      accountId: app.accountId,
      deletedAt: new Date().toISOString(),
    });
  });
  deps.outbox.kick();
}
