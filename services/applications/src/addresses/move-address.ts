import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { MoveAddressRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/MoveAddressRequest';
import { readOwned as readApplication } from '../applications/repository.ts';
import type { Deps } from '../context.ts';
import { announceChange, auditChange, type AddressChange } from './events.ts';
import { lockOwned, readByValue, setOwner, type AddressView } from './repository.ts';
import { addressOf } from './rules.ts';

/** Moves an address the account owns to another of its applications (a no-op when it is there already). */
export async function moveAddress(
  deps: Deps,
  req: MoveAddressRequest__Output,
  audit?: AuditContext,
): Promise<AddressView> {
  const { type, value } = addressOf(req);
  await readApplication(deps.orm.em, req.accountId, req.toApplicationId);
  await deps.orm.em.fork().transactional(async (tx) => {
    const from = await lockOwned(tx, req.accountId, type, value);
    if (!from) throw AppError.notFound('address');
    if (from === req.toApplicationId) return;
    await setOwner(tx, type, value, req.toApplicationId);
    const change: AddressChange = {
      type,
      address: value,
      applicationId: req.toApplicationId,
      previousApplicationId: from,
      accountId: req.accountId,
    };
    announceChange(tx, change);
    auditChange(tx, 'address.move', change, audit);
  });
  deps.outbox.kick();
  const view = await readByValue(deps.orm.em, type, value);
  if (!view) throw AppError.notFound('address');
  return view;
}
