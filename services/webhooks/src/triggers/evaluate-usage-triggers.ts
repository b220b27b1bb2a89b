// The usage triggers' pass (docs/api.md#usage-triggers): every USAGE_TRIGGER_INTERVAL_MS (30 s at
// most), one replica at a time (startPeriodicJob's advisory lock), the triggers whose usage of
// their period reached their threshold, read from the usage rollups, fire: their firing state and
// their usageTriggered event (to the outbox) in one transaction each. In the first minutes of a
// day the day before (and of a month the month before) is looked at first, so a crossing just
// before midnight fires too.
import { sqlTransaction } from '@switchboard/db';
import { SUBJECTS } from '@switchboard/events';
import type { Deps } from '../context.ts';
import { anySubscription } from '../alerts/repository.ts';
import { utcDay } from '../usage/counts.ts';
import { markUsageTriggerFired, readDueUsageTriggers, type DueUsageTrigger } from './repository.ts';
import { enqueueInboundEvent } from '../events/inbound-event.ts';

/** Triggers read per statement. */
const BATCH = 500;
/** How long after a day's end its crossings are still looked for. */
export const GRACE_MS = 2 * 60_000;

/** One pass at `now`; answers the triggers fired. */
export async function evaluateUsageTriggersOnce(
  deps: Pick<Deps, 'orm' | 'schema' | 'publicBaseUrl' | 'outbox'>,
  now = new Date(),
): Promise<number> {
  const days = [utcDay(now)];
  const before = new Date(now.getTime() - GRACE_MS);
  if (utcDay(before) !== days[0]) days.unshift(utcDay(before));
  let fired = 0;
  for (const day of days) {
    let after = '0';
    for (;;) {
      const due = await readDueUsageTriggers(deps.orm.em, deps.schema, day, after, BATCH);
      for (const t of due) if (await fire(deps, t, now)) fired++;
      if (due.length < BATCH) break;
      after = due[due.length - 1]!.seq;
    }
  }
  if (fired > 0) deps.outbox.kick();
  return fired;
}

async function fire(
  deps: Pick<Deps, 'orm' | 'schema' | 'publicBaseUrl'>,
  t: DueUsageTrigger,
  now: Date,
): Promise<boolean> {
  return sqlTransaction(deps.orm.em, 'begin', async (query) => {
    if (!(await markUsageTriggerFired(query, deps.schema, t.id, t.period))) return false;
    if (!(await anySubscription(query, deps.schema, t.account_id, null, 'usageTriggered'))) return true;
    const period = t.recurring === 'monthly' ? 'month' : 'day';
    const usage = new URLSearchParams({ category: t.category, period, since: t.period });
    await enqueueInboundEvent(query, deps.schema, SUBJECTS.usageTriggered, {
      accountId: t.account_id,
      applicationId: null,
      timestamp: now.toISOString(),
      data: {
        triggerId: t.id,
        category: t.category,
        threshold: Number(t.threshold),
        recurring: t.recurring,
        periodStart: `${t.period}T00:00:00.000Z`,
        usage: Number(t.usage),
        at: now.toISOString(),
        usageHref: `${deps.publicBaseUrl}/v1/usage?${usage.toString()}`,
      },
    });
    return true;
  });
}
