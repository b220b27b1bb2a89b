// GET /v1/usage (docs/api.md#usage): an account's count of a category per UTC day or month over a
// window of whole periods, read from the usage rollups; every period of the window is listed.
import { AppError, type FieldError } from '@switchboard/errors';
import type { GetUsageRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetUsageRequest';
import type { GetUsageResponse } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetUsageResponse';
import type { Deps } from '../context.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { checkApplicationId, checkCategory } from '../triggers/rules.ts';
import { readUsage } from './repository.ts';

/** Most periods one answer holds. */
export const MAX_PERIODS = 400;
/** Periods of the default window: the last 30 days, or the last 12 months (the current one included). */
const DEFAULT_DAYS = 30;
const DEFAULT_MONTHS = 12;

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const addMonths = (d: Date, n: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));

/** A UTC date (YYYY-MM-DD; YYYY-MM for a month), on a period's first day. */
function periodDate(field: string, v: string, period: 'day' | 'month', errors: FieldError[]): Date | null {
  if (!v) return null;
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(v);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1)) : null;
  if (!m || !d || Number.isNaN(d.getTime()) || (m[3] && isoDay(d) !== v) || (!m[3] && period === 'day')) {
    errors.push({ field, message: period === 'day' ? 'must be a UTC date, YYYY-MM-DD' : 'must be a month, YYYY-MM' });
    return null;
  }
  if (period === 'month' && d.getUTCDate() !== 1) {
    errors.push({ field, message: 'must be the first day of a month (or YYYY-MM) when period is month' });
    return null;
  }
  return d;
}

export async function getUsage(
  deps: Pick<Deps, 'orm' | 'schema'>,
  req: GetUsageRequest__Output,
): Promise<GetUsageResponse> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  const category = checkCategory(req.category, errors);
  const period = (req.period || 'day') as 'day' | 'month';
  if (period !== 'day' && period !== 'month') errors.push({ field: 'period', message: 'must be day or month' });
  const applicationId = checkApplicationId(req.applicationId, errors);
  const okPeriod = period === 'day' || period === 'month';
  let since = okPeriod ? periodDate('since', req.since, period, errors) : null;
  let until = okPeriod ? periodDate('until', req.until, period, errors) : null;
  if (errors.length > 0) throw AppError.invalid(errors);
  const now = new Date();
  const step = (d: Date, n: number) => (period === 'day' ? new Date(d.getTime() + n * DAY_MS) : addMonths(d, n));
  const current = period === 'day' ? new Date(`${isoDay(now)}T00:00:00Z`) : monthStart(now);
  until ??= since ? step(since, period === 'day' ? DEFAULT_DAYS : DEFAULT_MONTHS) : step(current, 1);
  since ??= step(until, -(period === 'day' ? DEFAULT_DAYS : DEFAULT_MONTHS));
  const starts: string[] = [];
  for (let d = since; d < until && starts.length <= MAX_PERIODS; d = step(d, 1)) starts.push(isoDay(d));
  if (since >= until) throw AppError.invalid([{ field: 'until', message: 'must be after since' }]);
  if (starts.length > MAX_PERIODS)
    throw AppError.invalid([
      { field: 'until', message: `makes more than ${MAX_PERIODS} periods: take a shorter window` },
    ]);
  const rows = await readUsage(deps.orm.em, deps.schema, {
    accountId,
    category: category!,
    period,
    since: isoDay(since),
    until: isoDay(until),
    applicationId,
  });
  const byStart = new Map(rows.map((r) => [r.start, r.count]));
  let total = 0n;
  const periods = starts.map((start) => {
    const count = byStart.get(start) ?? '0';
    total += BigInt(count);
    return { start, count };
  });
  return { category: category!, period, since: isoDay(since), until: isoDay(until), periods, total: total.toString() };
}
