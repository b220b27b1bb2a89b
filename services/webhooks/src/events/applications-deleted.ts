// applications.deleted -> the application's subscriptions go (deletion-consumer.ts).
import { z } from 'zod';
import { SUBJECTS } from '@switchboard/events';
import type { Deps } from '../context.ts';
import { deleteApplicationTriggers } from '../triggers/repository.ts';
import { deleteOwned, type DeletionConsumer } from './deletion-consumer.ts';

export const APPLICATIONS_DELETED_DURABLE = 'webhooks-applications-deleted';

const body = z.object({
  applicationId: z.string().min(1).max(200),
  accountId: z.union([z.string(), z.number()]).optional(),
  deletedAt: z.string().optional(),
});

/** The consumer of application deletions (started by startDeletionConsumer). */
export function applicationsDeleted(deps: Deps): DeletionConsumer<typeof body> {
  return {
    durable: APPLICATIONS_DELETED_DURABLE,
    subject: SUBJECTS.applicationDeleted,
    metric: 'webhooks_applications_deleted_events_total',
    body,
    async handle(e) {
      const removed = await deleteOwned(deps, { applicationId: e.applicationId });
      const triggers = await deleteApplicationTriggers(deps.orm.em, deps.schema, e.applicationId);
      return { applicationId: e.applicationId, ...removed, triggers };
    },
    done: 'application deleted: its webhook subscriptions, session records and alert triggers removed',
  };
}
