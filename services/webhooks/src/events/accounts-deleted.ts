// accounts.deleted -> all the account's subscriptions go (deletion-consumer.ts). The applications
// service publishes it after an applications.deleted for each of the account's applications.
import { z } from 'zod';
import { ACCOUNT_ID, SUBJECTS } from '@switchboard/events';
import type { Deps } from '../context.ts';
import { deleteOwned, type DeletionConsumer } from './deletion-consumer.ts';

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
      return { accountId: e.accountId, ...(await deleteOwned(deps, { accountId: e.accountId })) };
    },
    done: 'account deleted: its webhook subscriptions and session records removed',
  };
}
