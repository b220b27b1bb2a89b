import type { EntityManager } from '@mikro-orm/postgresql';
import { SUBJECTS } from '@switchboard/platform';
import { enqueueEvent } from '../outbox/outbox';
import { findOwned } from './repository';

/** Deletes the application and announces it (applications.deleted) in the same transaction. */
export async function deleteApplication(em: EntityManager, accountId: string, id: string): Promise<void> {
  const app = await findOwned(em, accountId, id);
  em.remove(app);
  enqueueEvent(em, SUBJECTS.applicationDeleted, { applicationId: app.id, accountId: app.accountId, deletedAt: new Date().toISOString() });
  await em.flush();
}
