import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteAccountAnswers } from '@switchboard/db';
import { SUBJECTS } from '@switchboard/events';
import { announceChange } from '../addresses/events.ts';
import { valuesOfApplication } from '../addresses/repository.ts';
import { AccountSchema, ApplicationSchema } from '../db/entities.ts';
import { enqueueEvent } from '../outbox/outbox.ts';

export interface DeletedAccount {
  id: string;
  username: string;
  applications: number;
}

/**
 * Deletes an account with everything it holds, in one transaction: its applications (with their
 * secrets and generated addresses) go by foreign-key cascade and its numbers go back to the
 * inventory. Each released address is announced (addresses.changed), each application
 * (applications.deleted) and then the account itself (accounts.deleted), through the outbox, so the
 * webhooks service removes the account's subscriptions of both levels and caches drop the entries.
 * The stored answers of its idempotent requests go too. Undefined when there is no such account.
 */
export async function deleteAccount(em: EntityManager, username: string): Promise<DeletedAccount | undefined> {
  return em.transactional(async (tx) => {
    const account = await tx.findOne(AccountSchema, { username });
    if (!account) return undefined;
    const deletedAt = new Date().toISOString();
    const apps = await tx.find(ApplicationSchema, { accountId: account.id }, { orderBy: { seq: 'asc' } });
    for (const app of apps) {
      for (const a of await valuesOfApplication(tx, app.id)) {
        announceChange(tx, {
          type: a.type,
          address: a.value,
          applicationId: null,
          previousApplicationId: app.id,
          accountId: account.id,
        });
      }
      enqueueEvent(tx, SUBJECTS.applicationDeleted, { applicationId: app.id, accountId: account.id, deletedAt });
    }
    enqueueEvent(tx, SUBJECTS.accountDeleted, { accountId: account.id, deletedAt });
    await tx.nativeDelete(AccountSchema, { id: account.id });
    await deleteAccountAnswers(tx, account.id);
    return { id: account.id, username: account.username, applications: apps.length };
  });
}
