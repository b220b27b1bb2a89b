// Asks the applications service whether an application exists and belongs to an account.
import { AppError } from '@switchboard/platform';
import type { ApplicationsClient } from '@switchboard/proto';
import { isApplicationId } from '../subscriptions/ids';

export interface ApplicationDirectory {
  /** Resolves when the application exists and belongs to the account; else throws not_found (or unavailable). */
  assertOwned(accountId: string, applicationId: string, requestId?: string): Promise<void>;
  /** Forgets what is known about an application (after it was deleted). */
  forget(applicationId: string): void;
}

export interface DirectoryOptions {
  /** How long a positive answer is reused. An application never changes account, so only deletion matters. */
  ttlMs?: number;
  maxEntries?: number;
}

export function createApplicationDirectory(client: ApplicationsClient, opts: DirectoryOptions = {}): ApplicationDirectory {
  const ttlMs = opts.ttlMs ?? 5000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const owners = new Map<string, { accountId: string; expires: number }>();

  return {
    async assertOwned(accountId, applicationId, requestId) {
      if (!isApplicationId(applicationId)) throw AppError.notFound('application');
      const cached = owners.get(applicationId);
      if (cached && cached.expires > Date.now()) {
        if (cached.accountId !== accountId) throw AppError.notFound('application');
        return;
      }
      try {
        const res = await client.getApplication({ accountId, id: applicationId }, requestId ? { requestId } : {});
        if (!res.application || res.application.accountId !== accountId) throw AppError.notFound('application');
      } catch (err) {
        if (err instanceof AppError && (err.code === 'not_found' || err.code === 'invalid_request')) throw AppError.notFound('application');
        if (err instanceof AppError) throw err;
        throw new AppError('unavailable', 'the applications service is unavailable, try again', undefined, { cause: err });
      }
      if (owners.size >= maxEntries) owners.clear();
      owners.set(applicationId, { accountId, expires: Date.now() + ttlMs });
    },
    forget(applicationId) {
      owners.delete(applicationId);
    },
  };
}
