// accounts.deleted -> all the account's subscriptions go (deletion-consumer.ts). The applications
// service publishes it after an applications.deleted for each of the account's applications.
import { z } from 'zod';
import { ACCOUNT_ID, SUBJECTS } from '@switchboard/events';
import type { Deps } from '../context.ts';
import { deleteAccountSubscriptions } from '../subscriptions/delete-account-subscriptions.ts';
import type { DeletionConsumer } from './deletion-consumer.ts';
import { deleteSessions } from '../sessions/delete-sessions.ts';

export const ACCOUNTS_DELETED_DURABLE = 'webhooks-accounts-deleted';

const body = z.object({
  accountId: z.union([z.string().regex(ACCOUNT_ID), z.number().int().positive()]).transform(String),
  deletedAt: z.string().optional(),
});

/** The consumer of account deletions (started by startDeletionConsumer). */
export function accountsDeleted(deps: Deps): DeletionConsumer<typeof body> {
  return {
    durable: ACCOUNTS_DELETED_DURABLE,
    subject: SUBJECTS.accountDeleted,
    metric: 'webhooks_accounts_deleted_events_total',
    body,
    async handle(e) {
      const removed = await deleteAccountSubscriptions(deps, { accountId: e.accountId });
      const sessions = await deleteSessions(deps, { accountId: e.accountId });
      return { accountId: e.accountId, subscriptions: removed.length, sessions };
    },
    done: 'account deleted: its webhook subscriptions and session records removed',
  };
}
