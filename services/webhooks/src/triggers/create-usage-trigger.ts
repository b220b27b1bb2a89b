import { AppError, type FieldError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { CreateUsageTriggerRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/CreateUsageTriggerRequest';
import type { UsageTrigger } from '@switchboard/proto/generated/switchboard/webhooks/v1/UsageTrigger';
import type { Deps, Traced } from '../context.ts';
import { UsageTriggerSchema } from '../db/entities.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { utcDay } from '../usage/counts.ts';
import { usageOfDay } from '../usage/repository.ts';
import { usageTriggerMessage } from './mapper.ts';
import {
  checkCategory,
  checkRecurring,
  checkThreshold,
  MAX_USAGE_TRIGGERS,
  newUsageTriggerId,
  USAGE_THRESHOLD_MAX,
} from './rules.ts';
import { storeTrigger } from './store-trigger.ts';

/** The path of a usage trigger (the target of its audit entries). */
export const usageTriggerPath = (id: string) => `/v1/usage-triggers/${id}`;

/**
 * Creates a usage trigger of the account (at most MAX_USAGE_TRIGGERS: the count, the insert and
 * the audit entry run in one transaction under the account's trigger lock). One that does not recur
 * counts from now: the usage of today so far is its baseline.
 */
export async function createUsageTrigger(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: Traced<CreateUsageTriggerRequest__Output>,
  audit?: AuditContext,
): Promise<UsageTrigger> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  const category = checkCategory(req.category, errors);
  const threshold = checkThreshold(
    req.threshold === undefined ? undefined : Number(req.threshold),
    USAGE_THRESHOLD_MAX,
    errors,
  );
  const recurring = checkRecurring(req.recurring, errors);
  if (errors.length > 0) throw AppError.invalid(errors);
  const id = newUsageTriggerId();
  const row = await storeTrigger(deps, 'usage', accountId, id, usageTriggerPath(id), audit, async (em) => {
    const n = await em.count(UsageTriggerSchema, { accountId });
    if (n >= MAX_USAGE_TRIGGERS)
      throw new AppError('limit_exceeded', `an account can have at most ${MAX_USAGE_TRIGGERS} usage triggers`);
    const now = new Date();
    const baseline = recurring === 'none' ? await usageOfDay(em, deps.schema, accountId, category!, utcDay(now)) : '0';
    em.create(UsageTriggerSchema, {
      id,
      accountId,
      category: category!,
      threshold: String(threshold),
      recurring: recurring!,
      createdAt: now,
      baseline,
    });
  });
  return usageTriggerMessage(row);
}
