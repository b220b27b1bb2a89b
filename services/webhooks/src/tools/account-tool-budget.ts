// Per-account budgets of the delivery tools, counted in the database so that every replica sees
// the same count: resends (rows of `resends` with trigger "resend") and recoveries (rows of
// `recovery_tasks`) queued within the last hour. Concurrent calls of one account are serialized
// by a transaction-scoped advisory lock, so the count is exact.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import { lockAndCountToolUse } from './repository.ts';

export interface ToolLimits {
  /** RECOVERY_MAX_DELIVERIES. */
  recoveryMaxDeliveries: number;
  /** RESENDS_PER_HOUR. */
  resendsPerHour: number;
  /** RECOVERIES_PER_HOUR. */
  recoveriesPerHour: number;
}

const HOUR_MS = 3_600_000;

/**
 * Within the caller's transaction: refuses (429 + Retry-After) when the account has used its hourly
 * budget of `tool`; otherwise holds the account's lock until the transaction ends, so the row the
 * caller inserts is counted by the next call.
 */
export async function takeToolBudget(
  em: EntityManager,
  schema: string,
  accountId: string,
  tool: 'resend' | 'recovery',
  limits: ToolLimits,
): Promise<void> {
  const limit = tool === 'resend' ? limits.resendsPerHour : limits.recoveriesPerHour;
  const row = await lockAndCountToolUse(em, schema, accountId, tool);
  if (row.n < limit) return;
  const waitS = row.oldest
    ? Math.max(1, Math.ceil((new Date(row.oldest).getTime() + HOUR_MS - Date.now()) / 1000))
    : 3600;
  const what = tool === 'resend' ? 'resends' : 'recoveries';
  throw new AppError('rate_limited', `at most ${limit} ${what} per account per hour; retry in ${waitS} s`, undefined, {
    retryAfterS: waitS,
  });
}
