// Asks the applications service whether an application exists and belongs to an account. An
// application never changes account, so a positive answer stays true until the application is
// deleted: it is kept (bounded) until applications.deleted, which every replica hears on core NATS,
// drops it; after a reconnect (an announcement may have been missed) everything is asked again.
// A create that races a deletion is still refused by the tombstone check in its insert.
import { LRUCache } from 'lru-cache';
import { AppError } from '@switchboard/errors';
import { followChanges, type NatsConnection } from '@switchboard/messaging';
import { SUBJECTS, isApplicationId } from '@switchboard/events';
import type { ApplicationsClient } from '@switchboard/proto';

export interface ApplicationDirectory {
  /** Resolves when the application exists and belongs to the account; else throws not_found (or unavailable). */
  assertOwned(accountId: string, applicationId: string, requestId?: string): Promise<void>;
  /** Forgets what is known about an application (after it was deleted). */
  forget(applicationId: string): void;
  /** Forgets everything. */
  clear(): void;
}

export interface DirectoryOptions {
  /** How long a positive answer is reused at most (a safety net: deletions drop it at once). */
  ttlMs?: number;
  maxEntries?: number;
}

export function createApplicationDirectory(
  client: ApplicationsClient,
  opts: DirectoryOptions = {},
): ApplicationDirectory {
  // application id -> its account
  const owners = new LRUCache<string, string>({ max: opts.maxEntries ?? 10_000, ttl: opts.ttlMs ?? 10 * 60_000 });

  return {
    async assertOwned(accountId, applicationId, requestId) {
      if (!isApplicationId(applicationId)) throw AppError.notFound('application');
      const owner = owners.get(applicationId);
      if (owner !== undefined) {
        if (owner !== accountId) throw AppError.notFound('application');
        return;
      }
      try {
        const res = await client.getApplication({ accountId, id: applicationId }, requestId ? { requestId } : {});
        if (!res.application || res.application.accountId !== accountId) throw AppError.notFound('application');
      } catch (err) {
        if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid_request'))
          throw AppError.notFound('application');
        if (err instanceof AppError) throw err;
        throw new AppError('unavailable', 'the applications service is unavailable, try again', undefined, {
          cause: err,
        });
      }
      owners.set(applicationId, accountId);
    },
    forget(applicationId) {
      owners.delete(applicationId);
    },
    clear() {
      owners.clear();
    },
  };
}

/**
 * Keeps the directory in step with deletions announced on NATS (applications.deleted, published by
 * the applications service through its outbox); returns the function that stops following.
 */
export function followDeletions(nc: NatsConnection, directory: ApplicationDirectory): () => void {
  return followChanges(
    nc,
    [SUBJECTS.applicationDeleted],
    (_subject, body) => {
      if (typeof body.applicationId === 'string') directory.forget(body.applicationId);
      else directory.clear();
    },
    () => directory.clear(),
  );
}
