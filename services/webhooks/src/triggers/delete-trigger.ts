import { recordAlone } from '@switchboard/db';
import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { DeleteAlertTriggerRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeleteAlertTriggerRequest';
import type { DeleteUsageTriggerRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeleteUsageTriggerRequest';
import type { Deps } from '../context.ts';
import { AlertTriggerSchema, UsageTriggerSchema } from '../db/entities.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { alertTriggerPath } from './create-alert-trigger.ts';
import { usageTriggerPath } from './create-usage-trigger.ts';
import { isAlertTriggerId, isUsageTriggerId } from './rules.ts';

/** Deletes an alert trigger of the account (with its firing state), audited in the same transaction. */
export async function deleteAlertTrigger(
  deps: Pick<Deps, 'orm'>,
  req: DeleteAlertTriggerRequest__Output,
  audit?: AuditContext,
): Promise<void> {
  const accountId = requireAccount(req.accountId);
  if (!isAlertTriggerId(req.id)) throw AppError.notFound('alert trigger');
  await deps.orm.em.fork().transactional(async (em) => {
    const n = await em.nativeDelete(AlertTriggerSchema, { id: req.id, accountId });
    if (n === 0) throw AppError.notFound('alert trigger');
    await recordAlone(
      em,
      { accountId, action: 'alert-trigger.delete', target: alertTriggerPath(req.id), outcome: 'success' },
      audit,
    );
  });
}

/** Deletes a usage trigger of the account (with its firing state), audited in the same transaction. */
export async function deleteUsageTrigger(
  deps: Pick<Deps, 'orm'>,
  req: DeleteUsageTriggerRequest__Output,
  audit?: AuditContext,
): Promise<void> {
  const accountId = requireAccount(req.accountId);
  if (!isUsageTriggerId(req.id)) throw AppError.notFound('usage trigger');
  await deps.orm.em.fork().transactional(async (em) => {
    const n = await em.nativeDelete(UsageTriggerSchema, { id: req.id, accountId });
    if (n === 0) throw AppError.notFound('usage trigger');
    await recordAlone(
      em,
      { accountId, action: 'usage-trigger.delete', target: usageTriggerPath(req.id), outcome: 'success' },
      audit,
    );
  });
}
