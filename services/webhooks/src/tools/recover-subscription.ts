import { randomBytes } from 'node:crypto';
import { AppError, type FieldError } from '@switchboard/platform';
import type { RecoverSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/RecoverSubscriptionRequest';
import type { Deps, Traced } from '../context';
import { findOwned, requireAccount } from '../subscriptions/repository';
import { takeToolBudget } from './account-tool-budget';
import { readRecovery, type RecoveryView } from './get-recovery';

/** Longest window one recovery covers. */
export const RECOVERY_WINDOW_MAX_DAYS = 30;
const DAY_MS = 86_400_000;
/** A task still running after this long (a lost job) no longer holds up the subscription's next recovery. */
const RUNNING_BLOCKS_FOR = '1 day';

function instant(field: string, v: string, errors: FieldError[]): Date | undefined {
  // ISO 8601 with a time and a zone (Z or an offset): a bare date or local time is ambiguous.
  const d = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(v) ? new Date(v) : undefined;
  if (!d || Number.isNaN(d.getTime())) {
    errors.push({ field, message: 'must be an ISO 8601 time with a zone, e.g. 2026-03-01T00:00:00Z' });
    return undefined;
  }
  return d;
}

/**
 * Queues every delivery of the subscription that ended failed within [since, until) (its last
 * attempt, tests aside, failed at a time in the window) again, in the original order of the
 * deliveries, as a recovery task whose counts follow the attempt records. A delivery whose body is
 * no longer kept is counted as skipped. One recovery runs per subscription at a time (409 naming
 * the running task), a window may hold at most RECOVERY_MAX_DELIVERIES of them (400), and an
 * account queues at most RECOVERIES_PER_HOUR recoveries (429).
 */
export async function recoverSubscription(deps: Deps, req: Traced<RecoverSubscriptionRequest__Output>): Promise<RecoveryView> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  const since = req.since ? instant('since', req.since, errors) : (errors.push({ field: 'since', message: 'is required' }), undefined);
  const until = req.until !== undefined ? instant('until', req.until, errors) : new Date();
  if ((req.status ?? 'failed') !== 'failed') errors.push({ field: 'status', message: 'must be "failed"' });
  if (since && until) {
    if (since.getTime() >= until.getTime()) errors.push({ field: 'since', message: 'must be before until' });
    else if (until.getTime() - since.getTime() > RECOVERY_WINDOW_MAX_DAYS * DAY_MS) errors.push({ field: 'since', message: `the window may span at most ${RECOVERY_WINDOW_MAX_DAYS} days` });
  }
  if (errors.length > 0) throw AppError.invalid(errors);

  const s = deps.schema;
  const taskId = `rcv_${randomBytes(12).toString('hex')}`;
  const view = await deps.orm.em.fork().transactional(async (em) => {
    const sub = await findOwned(em, accountId, req.id);
    if (!sub.enabled) throw new AppError('conflict', 'the subscription is disabled: enable it before recovering its deliveries');
    // The subscription's row lock orders concurrent recoveries of it (over every replica).
    await em.execute(`select 1 from "${s}".subscriptions where id = ? for update`, [sub.id]);
    const [running] = await em.execute<{ id: string }[]>(
      `select id from "${s}".recovery_tasks where subscription_id = ? and completed_at is null and created_at > now() - interval '${RUNNING_BLOCKS_FOR}' limit 1`,
      [sub.id],
    );
    if (running)
      throw new AppError('conflict', `the recovery ${running.id} of this subscription is still running: wait until GET /v1/webhooks/${sub.id}/recoveries/${running.id} says completed`);
    await takeToolBudget(em, s, accountId, 'recovery', deps.toolLimits);
    const max = deps.toolLimits.recoveryMaxDeliveries;
    // Every message of the subscription whose newest record (tests aside) failed within the window:
    // only messages with a record in the window are looked at.
    const rows = await em.execute<{ message_id: string; event: string; first_seq: string; kept: boolean }[]>(
      `with candidates as (
         select distinct message_id from "${s}".deliveries
         where subscription_id = ? and trigger <> 'test' and created_at >= ? and created_at < ?
       ), messages as (
         select d.message_id, min(d.seq) as first_seq from "${s}".deliveries d join candidates c using (message_id)
         where d.subscription_id = ? and d.trigger <> 'test' group by d.message_id
       ), last as (
         select distinct on (d.message_id) d.message_id, d.outcome, d.event, d.created_at from "${s}".deliveries d join candidates c using (message_id)
         where d.subscription_id = ? and d.trigger <> 'test' order by d.message_id, d.seq desc
       )
       select l.message_id, l.event, m.first_seq::text, (b.message_id is not null) as kept
       from last l join messages m using (message_id)
       left join "${s}".delivery_bodies b on b.message_id = l.message_id and b.target = ?
       where l.outcome = 'failed' and l.created_at >= ? and l.created_at < ?
       order by m.first_seq
       limit ${max + 1}`,
      [sub.id, since, until, sub.id, sub.id, sub.id, since, until],
    );
    if (rows.length > max)
      throw AppError.invalid([{ field: 'since', message: `the window holds more than ${max} failed deliveries, the most one recovery may queue: recover a narrower window` }]);
    const queued = rows.filter((r) => r.kept);
    await em.execute(
      `insert into "${s}".recovery_tasks (id, subscription_id, account_id, since, until, total, skipped, completed_at)
       values (?, ?, ?, ?, ?, ?, ?, case when ? = 0 then now() end)`,
      [taskId, sub.id, accountId, since, until, queued.length, rows.length - queued.length, queued.length],
    );
    if (queued.length > 0) {
      // One timestamp for the task's rows: the relay then publishes them by original_seq.
      await em.execute(
        `insert into "${s}".resends (id, task_id, kind, subscription_id, account_id, message_id, event, original_seq, trigger, created_at)
         select 'dlv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), ?, 'notification', ?, ?, x.m, x.e, x.q, 'recovery', now()
         from jsonb_to_recordset(?::jsonb) as x(m text, e text, q bigint)`,
        [taskId, sub.id, accountId, JSON.stringify(queued.map((r) => ({ m: r.message_id, e: r.event, q: r.first_seq })))],
      );
    }
    return readRecovery(em, s, accountId, sub.id, taskId);
  });
  deps.dispatchers.resendsQueued();
  return view;
}
