import { isRecoveryId } from '@switchboard/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import type { GetRecoveryRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetRecoveryRequest';
import type { Recovery } from '@switchboard/proto/generated/switchboard/webhooks/v1/Recovery';
import type { Deps } from '../context.ts';
import { findOwned, requireAccount } from '../subscriptions/repository.ts';
import { findRecoveryTask } from './repository.ts';

export type RecoveryView = Recovery;

/** A recovery task of the subscription, with its counts; "completed" once every delivery of it has an outcome. */
export async function readRecovery(
  em: EntityManager,
  schema: string,
  accountId: string,
  subscriptionId: string,
  taskId: string,
): Promise<RecoveryView> {
  if (!isRecoveryId(taskId)) throw AppError.notFound('recovery');
  const t = await findRecoveryTask(em, schema, accountId, subscriptionId, taskId);
  if (!t) throw AppError.notFound('recovery');
  return {
    id: t.id,
    subscriptionId: t.subscription_id,
    state: t.cancelled_at ? 'cancelled' : t.completed_at ? 'completed' : 'running',
    total: t.total,
    sent: t.sent,
    failed: t.failed,
    skipped: t.skipped,
    since: new Date(t.since).toISOString(),
    until: new Date(t.until).toISOString(),
    createdAt: new Date(t.created_at).toISOString(),
    ...(t.completed_at ? { completedAt: new Date(t.completed_at).toISOString() } : {}),
  };
}

export async function getRecovery(deps: Deps, req: GetRecoveryRequest__Output): Promise<RecoveryView> {
  const accountId = requireAccount(req.accountId);
  const em = deps.orm.em.fork();
  const sub = await findOwned(em, accountId, req.subscriptionId);
  return readRecovery(em, deps.schema, accountId, sub.id, req.taskId);
}
