import type { EntityManager } from '@mikro-orm/postgresql';
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

/** Per kind: the form of its ids, its deletion and its path. */
const KINDS = {
  alert: {
    isId: isAlertTriggerId,
    remove: (em: EntityManager, id: string, accountId: string) =>
      em.nativeDelete(AlertTriggerSchema, { id, accountId }),
    path: alertTriggerPath,
  },
  usage: {
    isId: isUsageTriggerId,
    remove: (em: EntityManager, id: string, accountId: string) =>
      em.nativeDelete(UsageTriggerSchema, { id, accountId }),
    path: usageTriggerPath,
  },
} as const;

/**
 * Deletes an alert or usage trigger of the account (with its firing state), audited in the same
 * transaction (`alert-trigger.delete`, `usage-trigger.delete`).
 */
export async function deleteTrigger(
  kind: keyof typeof KINDS,
  deps: Pick<Deps, 'orm'>,
  req: DeleteAlertTriggerRequest__Output | DeleteUsageTriggerRequest__Output,
  audit: AuditContext | undefined,
): Promise<void> {
  const { isId, remove, path } = KINDS[kind];
  const what = `${kind} trigger`;
  const accountId = requireAccount(req.accountId);
  if (!isId(req.id)) throw AppError.notFound(what);
  await deps.orm.em.fork().transactional(async (em) => {
    const n = await remove(em, req.id, accountId);
    if (n === 0) throw AppError.notFound(what);
    await recordAlone(
      em,
      { accountId, action: `${kind}-trigger.delete`, target: path(req.id), outcome: 'success' },
      audit,
    );
  });
}
