import { AppError, type FieldError } from '@switchboard/errors';
import type { ListDeliveriesRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/ListDeliveriesRequest';
import type { Deps } from '../context.ts';
import { DeliverySchema, type Delivery } from '../db/entities.ts';
import { decodeCursor, pageSize, toPage } from '../subscriptions/cursor.ts';
import { findOwned, requireAccount } from '../subscriptions/repository.ts';

const OUTCOMES: readonly string[] = ['succeeded', 'retrying', 'failed', 'cancelled'];

/** An ISO 8601 date-time filter, or undefined when not given (an error added when unreadable). */
function timeFilter(value: string, field: string, errors: FieldError[]): Date | undefined {
  if (!value) return undefined;
  const t = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(t) || Math.abs(new Date(t).getUTCFullYear() - 2000) >= 1000) {
    errors.push({ field, message: 'must be an ISO 8601 date-time (e.g. 2026-03-01T12:00:00Z)' });
    return undefined;
  }
  return new Date(t);
}

/** The filters of a list, checked (400 naming each parameter at fault); the MikroORM conditions they make. */
function filtersOf(req: ListDeliveriesRequest__Output): Record<string, unknown> {
  const errors: FieldError[] = [];
  const where: Record<string, unknown> = {};
  if (req.outcome) {
    if (OUTCOMES.includes(req.outcome)) where.outcome = req.outcome;
    else errors.push({ field: 'outcome', message: `must be one of ${OUTCOMES.join(', ')}` });
  }
  if (req.event) {
    if (req.event.length <= 64) where.event = req.event;
    else errors.push({ field: 'event', message: 'must be at most 64 characters' });
  }
  if (req.messageId) {
    if (req.messageId.length <= 200) where.messageId = req.messageId;
    else errors.push({ field: 'messageId', message: 'must be at most 200 characters' });
  }
  const since = timeFilter(req.since, 'since', errors);
  const until = timeFilter(req.until, 'until', errors);
  if (since && until && since >= until) errors.push({ field: 'until', message: 'must be after since' });
  if (since || until) where.createdAt = { ...(since ? { $gte: since } : {}), ...(until ? { $lt: until } : {}) };
  if (errors.length > 0) throw AppError.invalid(errors);
  return where;
}

/**
 * One page of delivery attempts, newest first: of one subscription of the account (either level),
 * or the session deliveries of one application of the account; narrowed by the filters given
 * (outcome, event, a time window, one message's attempts).
 */
export async function listDeliveries(
  deps: Deps,
  req: ListDeliveriesRequest__Output,
  requestId?: string,
): Promise<{ items: Delivery[]; nextCursor: string }> {
  const accountId = requireAccount(req.accountId);
  if (Boolean(req.subscriptionId) === Boolean(req.applicationId)) {
    throw AppError.invalid([
      { field: 'subscriptionId', message: 'exactly one of subscriptionId or applicationId must be given' },
    ]);
  }
  const filters = filtersOf(req);
  const n = pageSize(req.limit);
  const before = req.cursor ? decodeCursor('d', req.cursor) : undefined;
  const em = deps.orm.em.fork();
  let where: Record<string, unknown>;
  if (req.subscriptionId) {
    const sub = await findOwned(em, accountId, req.subscriptionId);
    where = { subscriptionId: sub.id, ...filters };
  } else {
    await deps.applications.assertOwned(accountId, req.applicationId, requestId);
    where = { applicationId: req.applicationId, kind: 'session', ...filters };
  }
  if (before) where.seq = { $lt: before };
  const rows = await em.find(DeliverySchema, where, { orderBy: { seq: 'desc' }, limit: n + 1 });
  return toPage(rows, n, 'd');
}
