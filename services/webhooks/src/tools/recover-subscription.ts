import { randomBytes } from 'node:crypto';
import { AppError, type FieldError } from '@switchboard/platform';
import type { RecoverSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/RecoverSubscriptionRequest';
import type { Deps, Traced } from '../context.ts';
import { findOwned, requireAccount } from '../subscriptions/repository.ts';
import { readRecovery, type RecoveryView } from './get-recovery.ts';

/** Longest window one recovery covers. */
export const RECOVERY_WINDOW_MAX_DAYS = 30;
const DAY_MS = 86_400_000;

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
 * no longer kept is counted as skipped.
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
    // Every message of the subscription whose newest record (tests aside) failed within the window.
    const rows = await em.execute<{ message_id: string; event: string; first_seq: string; kept: boolean }[]>(
      `with messages as (
         select message_id, min(seq) as first_seq from "${s}".deliveries
         where subscription_id = ? and trigger <> 'test' group by message_id
       ), last as (
         select distinct on (message_id) message_id, outcome, event, created_at from "${s}".deliveries
         where subscription_id = ? and trigger <> 'test' order by message_id, seq desc
       )
       select l.message_id, l.event, m.first_seq::text, (b.message_id is not null) as kept
       from last l join messages m using (message_id)
       left join "${s}".delivery_bodies b on b.message_id = l.message_id and b.target = ?
       where l.outcome = 'failed' and l.created_at >= ? and l.created_at < ?
       order by m.first_seq`,
      [sub.id, sub.id, sub.id, since, until],
    );
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
