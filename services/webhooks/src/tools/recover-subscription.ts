import { randomBytes } from 'node:crypto';
import { recordAlone } from '@switchboard/db';
import { AppError, type FieldError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { RecoverSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/RecoverSubscriptionRequest';
import type { Deps, Traced } from '../context.ts';
import { findOwned, requireAccount, webhookPath } from '../subscriptions/repository.ts';
import { readRecovery, type RecoveryView } from './get-recovery.ts';
import {
  findFailedMessages,
  insertRecoveryTask,
  lockAndFindRunningRecovery,
  type RecoveryFilter,
} from './repository.ts';
import { checkEvent } from '../subscriptions/rules.ts';
import { takeToolBudget } from './account-tool-budget.ts';
import { SESSION_ID_MAX } from '../deliveries/bodies.ts';

/** Longest window one recovery covers. */
export const RECOVERY_WINDOW_MAX_DAYS = 30;
const DAY_MS = 86_400_000;
/** A task still running after this long (a lost job) no longer holds up the subscription's next recovery. */
const RUNNING_BLOCKS_FOR = '1 day';

function instant(field: string, v: string, errors: FieldError[]): Date | undefined {
  // ISO 8601 with a time and a zone (Z or an offset): a bare date or local time is ambiguous.
  const d = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(v)
    ? new Date(v)
    : undefined;
  if (!d || Number.isNaN(d.getTime())) {
    errors.push({ field, message: 'must be an ISO 8601 time with a zone, e.g. 2026-03-01T00:00:00Z' });
    return undefined;
  }
  return d;
}

/** At most this many message ids in one recovery's filter. */
export const RECOVERY_MESSAGE_IDS_MAX = 1000;

/** At most this many session ids in one recovery's filter. */
export const RECOVERY_SESSION_IDS_MAX = 1000;

/** The filters of a recovery (docs/api.md#delivery-tools), checked. */
function checkFilter(req: RecoverSubscriptionRequest__Output, errors: FieldError[]): RecoveryFilter {
  const filter: RecoveryFilter = {};
  if (req.event !== undefined) filter.event = checkEvent(req.event, errors);
  for (const [field, v] of [
    ['statusFrom', req.statusFrom],
    ['statusTo', req.statusTo],
  ] as const) {
    if (v === undefined) continue;
    if (v < 100 || v > 599) errors.push({ field, message: 'must be an HTTP status from 100 to 599' });
    else filter[field] = v;
  }
  if (filter.statusFrom !== undefined && filter.statusTo !== undefined && filter.statusFrom > filter.statusTo)
    errors.push({ field: 'statusFrom', message: 'must be at most statusTo' });
  if (req.messageIds.length > RECOVERY_MESSAGE_IDS_MAX)
    errors.push({ field: 'messageId', message: `may list at most ${RECOVERY_MESSAGE_IDS_MAX} ids` });
  else if (req.messageIds.some((m) => m.length === 0 || m.length > 128))
    errors.push({ field: 'messageId', message: 'must be message ids (webhook-id values)' });
  else if (req.messageIds.length > 0) filter.messageIds = [...new Set(req.messageIds)];
  if (req.sessionIds.length > RECOVERY_SESSION_IDS_MAX)
    errors.push({ field: 'sessionId', message: `may list at most ${RECOVERY_SESSION_IDS_MAX} ids` });
  else if (req.sessionIds.some((id) => id.length === 0 || id.length > SESSION_ID_MAX))
    errors.push({ field: 'sessionId', message: `must be session ids (1 to ${SESSION_ID_MAX} characters)` });
  else if (req.sessionIds.length > 0) filter.sessionIds = [...new Set(req.sessionIds)];
  return filter;
}

/** What a recovery answers: its task, or on a dry run what it would take. */
export interface RecoveryAnswer {
  recovery?: RecoveryView;
  matched: number;
  skipped: number;
}

/**
 * Queues every delivery of the subscription that ended failed within [since, until) (its last
 * attempt, tests aside, failed at a time in the window) again, in the original order of the
 * deliveries, as a recovery task whose counts follow the attempt records. A delivery whose body is
 * no longer kept is counted as skipped. One recovery runs per subscription at a time (409 naming
 * the running task), a window may hold at most RECOVERY_MAX_DELIVERIES of them (400), and an
 * account queues at most RECOVERIES_PER_HOUR recoveries (429). The audit entry is written in the
 * transaction that queues the task. The filters narrow which failed deliveries it takes; a dry run
 * answers how many it would take (and how many of those it would skip) and queues nothing, taking
 * no budget.
 */
export async function recoverSubscription(
  deps: Deps,
  req: Traced<RecoverSubscriptionRequest__Output>,
  audit?: AuditContext,
): Promise<RecoveryAnswer> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  const since = req.since
    ? instant('since', req.since, errors)
    : (errors.push({ field: 'since', message: 'is required' }), undefined);
  const until = req.until !== undefined ? instant('until', req.until, errors) : new Date();
  if ((req.status ?? 'failed') !== 'failed') errors.push({ field: 'status', message: 'must be "failed"' });
  if (since && until) {
    if (since.getTime() >= until.getTime()) errors.push({ field: 'since', message: 'must be before until' });
    else if (until.getTime() - since.getTime() > RECOVERY_WINDOW_MAX_DAYS * DAY_MS)
      errors.push({ field: 'since', message: `the window may span at most ${RECOVERY_WINDOW_MAX_DAYS} days` });
  }
  const filter = checkFilter(req, errors);
  if (errors.length > 0) throw AppError.invalid(errors);

  const s = deps.schema;
  const taskId = `rcv_${randomBytes(12).toString('hex')}`;
  const max = deps.toolLimits.recoveryMaxDeliveries;
  if (req.dryRun) {
    const em = deps.orm.em.fork();
    const sub = await findOwned(em, accountId, req.id);
    const rows = await findFailedMessages(em, deps.schema, sub.id, since!, until!, max + 1, filter);
    return { matched: rows.length, skipped: rows.filter((r) => !r.kept).length };
  }
  const view = await deps.orm.em.fork().transactional(async (em) => {
    const sub = await findOwned(em, accountId, req.id);
    if (!sub.enabled)
      throw new AppError('conflict', 'the subscription is disabled: enable it before recovering its deliveries');
    const running = await lockAndFindRunningRecovery(em, s, sub.id, RUNNING_BLOCKS_FOR);
    if (running)
      throw new AppError(
        'conflict',
        `the recovery ${running} of this subscription is still running: wait until GET /v1/webhooks/${sub.id}/recoveries/${running} says completed`,
      );
    await takeToolBudget(em, s, accountId, 'recovery', deps.toolLimits);
    // Every message of the subscription whose newest record (tests aside) failed within the window.
    const rows = await findFailedMessages(em, s, sub.id, since!, until!, max + 1, filter);
    if (rows.length > max)
      throw AppError.invalid([
        {
          field: 'since',
          message: `the window holds more than ${max} failed deliveries, the most one recovery may queue: recover a narrower window`,
        },
      ]);
    const queued = rows.filter((r) => r.kept);
    await insertRecoveryTask(
      em,
      s,
      {
        id: taskId,
        subscriptionId: sub.id,
        accountId,
        since: since!,
        until: until!,
        skipped: rows.length - queued.length,
      },
      queued,
    );
    await recordAlone(
      em,
      {
        accountId,
        action: 'webhook.recover',
        target: `${webhookPath(sub.id)}/recoveries/${taskId}`,
        outcome: 'success',
      },
      audit,
    );
    return readRecovery(em, s, accountId, sub.id, taskId);
  });
  deps.dispatchers.resendsQueued();
  const skipped = view.skipped ?? 0;
  return { recovery: view, matched: (view.total ?? 0) + skipped, skipped };
}
