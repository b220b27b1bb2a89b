import { AppError } from '@switchboard/errors';
import type { Alert } from '@switchboard/proto/generated/switchboard/webhooks/v1/Alert';
import type { GetAlertRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetAlertRequest';
import type { Deps } from '../context.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { toMessage } from './mapper.ts';
import { findAlert } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One alert of the account; another account's is not found. */
export async function getAlert(deps: Pick<Deps, 'orm' | 'schema'>, req: GetAlertRequest__Output): Promise<Alert> {
  const accountId = requireAccount(req.accountId);
  if (!UUID.test(req.alertId)) throw AppError.notFound('alert');
  const row = await findAlert(deps.orm.em, deps.schema, accountId, req.alertId);
  if (!row) throw AppError.notFound('alert');
  return toMessage(row);
}
