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
import { readTriggers } from './repository.ts';
import { isAlertTriggerId, isUsageTriggerId } from './rules.ts';

/** Per kind: the kind of its cursors, what a missing one is called, and the form of its ids. */
const KINDS = {
  alert: { cursor: 'at', what: 'alert trigger', isId: isAlertTriggerId },
  usage: { cursor: 'ut', what: 'usage trigger', isId: isUsageTriggerId },
} as const;

type Reader = Pick<Deps, 'orm' | 'schema'>;

/** A page of the account's triggers of `kind`, after the request's cursor. */
async function triggersPage<K extends keyof typeof KINDS>(
  deps: Reader,
  kind: K,
  req: { accountId: string; limit: number; cursor: string },
) {
  const accountId = requireAccount(req.accountId);
  const n = pageSize(req.limit);
  const { cursor } = KINDS[kind];
  const afterSeq = req.cursor ? decodeCursor(cursor, req.cursor) : null;
  return toPage(await readTriggers(deps.orm.em, deps.schema, kind, accountId, { afterSeq, limit: n + 1 }), n, cursor);
}

/** The account's trigger of `kind` with the request's id; not found when another's or of the wrong form. */
async function oneTrigger<K extends keyof typeof KINDS>(deps: Reader, kind: K, req: { accountId: string; id: string }) {
  const accountId = requireAccount(req.accountId);
  const { what, isId } = KINDS[kind];
  if (!isId(req.id)) throw AppError.notFound(what);
  const [row] = await readTriggers(deps.orm.em, deps.schema, kind, accountId, { id: req.id });
  if (!row) throw AppError.notFound(what);
  return row;
}

export async function listAlertTriggers(
  deps: Reader,
  req: ListAlertTriggersRequest__Output,
): Promise<{ triggers: AlertTrigger[]; nextCursor: string }> {
  const page = await triggersPage(deps, 'alert', req);
  return { triggers: page.items.map(alertTriggerMessage), nextCursor: page.nextCursor };
}

export async function listUsageTriggers(
  deps: Reader,
  req: ListUsageTriggersRequest__Output,
): Promise<{ triggers: UsageTrigger[]; nextCursor: string }> {
  const page = await triggersPage(deps, 'usage', req);
  return { triggers: page.items.map(usageTriggerMessage), nextCursor: page.nextCursor };
}

export async function getAlertTrigger(deps: Reader, req: GetAlertTriggerRequest__Output): Promise<AlertTrigger> {
  return alertTriggerMessage(await oneTrigger(deps, 'alert', req));
}

export async function getUsageTrigger(deps: Reader, req: GetUsageTriggerRequest__Output): Promise<UsageTrigger> {
  return usageTriggerMessage(await oneTrigger(deps, 'usage', req));
}
