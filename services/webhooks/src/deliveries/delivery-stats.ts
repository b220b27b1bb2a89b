// Statistics of a subscription's deliveries (or an application's session deliveries) over a
// window, in buckets: read from the per-minute rollups (rollups.ts), never from the records, so a
// window costs the same however many records lie behind it.
import { AppError, type FieldError } from '@switchboard/errors';
import type { DeliveryStatsBucket } from '@switchboard/proto/generated/switchboard/webhooks/v1/DeliveryStatsBucket';
import type { GetDeliveryStatsRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetDeliveryStatsRequest';
import type { GetDeliveryStatsResponse } from '@switchboard/proto/generated/switchboard/webhooks/v1/GetDeliveryStatsResponse';
import type { Deps } from '../context.ts';
import { ownedScope } from './owned-delivery.ts';
import { readRollups } from './repository.ts';
import { LATENCY_BUCKETS, percentileOf } from './rollups.ts';
import { readSessionCounts, type SessionCounts } from './session-counts.ts';

const WINDOWS: Record<string, number> = { '1h': 3600, '24h': 86_400, '7d': 7 * 86_400 };
const BUCKETS: Record<string, number> = { '1m': 60, '5m': 300, '1h': 3600 };
/** Most buckets one answer holds (24h by 5m: 288; 7d by 1m or 5m is refused). */
export const MAX_BUCKETS = 300;

/** The window and bucket asked for, checked (400 naming the parameter at fault). */
function shapeOf(req: GetDeliveryStatsRequest__Output): { windowS: number; bucketS: number } {
  const errors: FieldError[] = [];
  const windowS = WINDOWS[req.window || '24h'];
  const bucketS = BUCKETS[req.bucket || '1h'];
  if (!windowS) errors.push({ field: 'window', message: `must be one of ${Object.keys(WINDOWS).join(', ')}` });
  if (!bucketS) errors.push({ field: 'bucket', message: `must be one of ${Object.keys(BUCKETS).join(', ')}` });
  if (windowS && bucketS && windowS / bucketS > MAX_BUCKETS)
    errors.push({
      field: 'bucket',
      message: `makes ${windowS / bucketS} buckets of a ${req.window} window, more than ${MAX_BUCKETS}: take a larger bucket`,
    });
  if (errors.length > 0) throw AppError.invalid(errors);
  return { windowS: windowS!, bucketS: bucketS! };
}

const ZERO_SESSIONS: SessionCounts = { answered: 0, fallback: 0, failed: 0 };

/**
 * `{window, bucket, buckets, totals}`: every bucket of the window (the last one holds now), each
 * with its attempts, their outcomes and latency p50/p95 (null without attempts made); applications
 * add their sessions by outcome.
 */
export async function getDeliveryStats(
  deps: Deps,
  req: GetDeliveryStatsRequest__Output,
  requestId?: string,
): Promise<GetDeliveryStatsResponse> {
  const { windowS, bucketS } = shapeOf(req);
  const em = deps.orm.em.fork();
  const scope = await ownedScope(deps, em, { ...req }, requestId);
  const target = 'subscriptionId' in scope ? scope.subscriptionId : scope.applicationId;
  const bucketMs = bucketS * 1000;
  const last = Math.floor(Date.now() / bucketMs) * bucketMs;
  const count = windowS / bucketS;
  const from = new Date(last - (count - 1) * bucketMs);
  const to = new Date(last + bucketMs);
  const [rows, sessions, heldKeys] = await Promise.all([
    readRollups(em, deps.schema, target, from, to, bucketS),
    'applicationId' in scope
      ? readSessionCounts(deps, scope.applicationId, from, to, bucketS)
      : Promise.resolve(undefined),
    'subscriptionId' in scope && scope.ordered
      ? deps.dispatchers.heldKeys(scope.subscriptionId)
      : Promise.resolve(undefined),
  ]);
  const byStart = new Map(rows.map((r) => [new Date(r.start).getTime(), r]));
  const totalLatency = new Array<number>(LATENCY_BUCKETS).fill(0);
  const totals = { attempts: 0, succeeded: 0, retrying: 0, failed: 0, cancelled: 0, throttled: 0 };
  const totalSessions = { ...ZERO_SESSIONS };
  const buckets: DeliveryStatsBucket[] = [];
  for (let i = 0; i < count; i++) {
    const start = from.getTime() + i * bucketMs;
    const r = byStart.get(start);
    const latency = r ? r.latency.map(Number) : [];
    latency.forEach((n, j) => {
      totalLatency[j]! += n;
    });
    const b = {
      attempts: Number(r?.attempts ?? 0),
      succeeded: Number(r?.succeeded ?? 0),
      retrying: Number(r?.retrying ?? 0),
      failed: Number(r?.failed ?? 0),
      cancelled: Number(r?.cancelled ?? 0),
      throttled: Number(r?.throttled ?? 0),
    };
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += b[k];
    const s = sessions?.get(start) ?? ZERO_SESSIONS;
    for (const k of Object.keys(totalSessions) as (keyof SessionCounts)[]) totalSessions[k] += s[k];
    buckets.push(bucketOf(new Date(start).toISOString(), b, latency, sessions ? s : undefined));
  }
  return {
    window: req.window || '24h',
    bucket: req.bucket || '1h',
    buckets,
    totals: bucketOf('', totals, totalLatency, sessions ? totalSessions : undefined),
    // Subscriptions with ordering: their keys held now (the dispatchers' bucket).
    ...(heldKeys !== undefined ? { heldKeys } : {}),
  };
}

function bucketOf(
  start: string,
  counts: {
    attempts: number;
    succeeded: number;
    retrying: number;
    failed: number;
    cancelled: number;
    throttled: number;
  },
  latency: number[],
  sessions: SessionCounts | undefined,
): DeliveryStatsBucket {
  const p50 = percentileOf(latency, 0.5);
  const p95 = percentileOf(latency, 0.95);
  return {
    start,
    ...counts,
    ...(p50 !== null ? { p50Ms: p50 } : {}),
    ...(p95 !== null ? { p95Ms: p95 } : {}),
    ...(sessions ? { sessions } : {}),
  };
}
