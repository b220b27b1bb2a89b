// The account's alert and usage triggers, in creation order, paged; and one of them (another
// account's, or an id of the wrong form, is not found).
import { decodeCursor, pageSize, toPage } from '@switchboard/contracts';
import { AppError } from '@switchboard/errors';
import type { AlertTrigger } from '@switchboard/proto/generated/switchboard/webhooks/v1/AlertTrigger';
import type { ListAlertTriggersRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListAlertTriggersRequest';
import type { ListUsageTriggersRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListUsageTriggersRequest';
import type { GetAlertTriggerRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetAlertTriggerRequest';
import type { GetUsageTriggerRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetUsageTriggerRequest';
import type { UsageTrigger } from '@switchboard/proto/generated/switchboard/webhooks/v1/UsageTrigger';
import type { Deps } from '../context.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { alertTriggerMessage, usageTriggerMessage } from './mapper.ts';
import { readAlertTriggers, readUsageTriggers } from './repository.ts';
import { isAlertTriggerId, isUsageTriggerId } from './rules.ts';

const ALERT_KIND = 'at';
const USAGE_KIND = 'ut';

export async function listAlertTriggers(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: ListAlertTriggersRequest__Output,
): Promise<{ triggers: AlertTrigger[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  const n = pageSize(req.limit);
  const afterSeq = req.cursor ? decodeCursor(ALERT_KIND, req.cursor) : null;
  const page = toPage(
    await readAlertTriggers(deps.orm.em, deps.schema, accountId, { afterSeq, limit: n + 1 }),
    n,
    ALERT_KIND,
  );
  return { triggers: page.items.map(alertTriggerMessage), nextCursor: page.nextCursor };
}

export async function listUsageTriggers(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: ListUsageTriggersRequest__Output,
): Promise<{ triggers: UsageTrigger[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  const n = pageSize(req.limit);
  const afterSeq = req.cursor ? decodeCursor(USAGE_KIND, req.cursor) : null;
  const page = toPage(
    await readUsageTriggers(deps.orm.em, deps.schema, accountId, { afterSeq, limit: n + 1 }),
    n,
    USAGE_KIND,
  );
  return { triggers: page.items.map(usageTriggerMessage), nextCursor: page.nextCursor };
}

export async function getAlertTrigger(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: GetAlertTriggerRequest__Output,
): Promise<AlertTrigger> {
  const accountId = requireAccount(req.accountId);
  if (!isAlertTriggerId(req.id)) throw AppError.notFound('alert trigger');
  const [row] = await readAlertTriggers(deps.orm.em, deps.schema, accountId, { id: req.id });
  if (!row) throw AppError.notFound('alert trigger');
  return alertTriggerMessage(row);
}

export async function getUsageTrigger(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: GetUsageTriggerRequest__Output,
): Promise<UsageTrigger> {
  const accountId = requireAccount(req.accountId);
  if (!isUsageTriggerId(req.id)) throw AppError.notFound('usage trigger');
  const [row] = await readUsageTriggers(deps.orm.em, deps.schema, accountId, { id: req.id });
  if (!row) throw AppError.notFound('usage trigger');
  return usageTriggerMessage(row);
}
