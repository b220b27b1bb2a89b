import { recordAlone } from '@switchboard/db';
import { AppError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { GetRecoveryRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetRecoveryRequest';
import type { Deps, Traced } from '../context.ts';
import { findOwned, requireAccount, webhookPath } from '../subscriptions/repository.ts';
import { readRecovery, type RecoveryView } from './get-recovery.ts';
import { cancelRecoveryTask } from './repository.ts';

/**
 * Cancels a running recovery of the subscription (docs/api.md#delivery-tools): its resends not yet
 * handed to the dispatchers are dropped, and the dispatchers skip the ones handed over (they read
 * the subscription's cancelled recoveries with its delivery target; the change event refreshes
 * their caches), recording them as cancelled. 409 when it is no longer running.
 */
export async function cancelRecovery(
  deps: Deps,
  req: Traced<GetRecoveryRequest__Output>,
  audit?: AuditContext,
): Promise<RecoveryView> {
  const accountId = requireAccount(req.accountId);
  const { sub, view } = await deps.orm.em.fork().transactional(async (em) => {
    const sub = await findOwned(em, accountId, req.subscriptionId);
    // Not found (another account's, unknown id) before anything else.
    const before = await readRecovery(em, deps.schema, accountId, sub.id, req.taskId);
    if (before.state !== 'running' || !(await cancelRecoveryTask(em, deps.schema, req.taskId)))
      throw new AppError(
        'conflict',
        `the recovery ${req.taskId} is ${before.state}: only a running one can be cancelled`,
      );
    await recordAlone(
      em,
      {
        accountId,
        action: 'webhook.recover.cancel',
        target: `${webhookPath(sub.id)}/recoveries/${req.taskId}`,
        outcome: 'success',
      },
      audit,
    );
    return { sub, view: await readRecovery(em, deps.schema, accountId, sub.id, req.taskId) };
  });
  deps.changes.changed(sub, req.requestId);
  return view;
}
