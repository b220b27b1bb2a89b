import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { ReleaseAddressRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ReleaseAddressRequest';
import type { Deps } from '../context.ts';
import { announceChange, auditChange, type AddressChange } from './events.ts';
import { lockOwned, release } from './repository.ts';
import { addressOf } from './rules.ts';

/** Releases an address of one of the account's applications: a number goes back to the inventory. */
export async function releaseAddress(
  deps: Deps,
  req: ReleaseAddressRequest__Output,
  audit?: AuditContext,
): Promise<void> {
  const { type, value } = addressOf(req);
  await deps.orm.em.fork().transactional(async (tx) => {
    const owner = await lockOwned(tx, req.accountId, type, value);
    if (!owner || owner !== req.applicationId) throw AppError.notFound('address');
    await release(tx, type, value);
    const change: AddressChange = {
      type,
      address: value,
      applicationId: null,
      previousApplicationId: owner,
      accountId: req.accountId,
    };
    announceChange(tx, change);
    auditChange(tx, 'address.release', change, audit);
  });
  deps.outbox.kick();
}
