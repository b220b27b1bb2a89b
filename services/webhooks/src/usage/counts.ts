// What a stored record adds to the usage rollups (docs/api.md#usage): a session counts in `sessions`,
// its channel's category and, launched through the Session API, `launches`; each alert raised
// (whatever raised it) in `alerts`; a notification attempt made (a cancelled retry made none) in `notifications`, and a
// failed one in `notifications.failed`. Days are UTC days.
import type { SessionRecord } from '@switchboard/contracts';
import type { UsageCategory } from '@switchboard/events';

/** One rollup increment: an account's category on a day, of an application ('' for none). */
export interface UsageIncrement {
  accountId: string;
  applicationId: string;
  category: UsageCategory;
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
}

export const utcDay = (at: Date | string): string => new Date(at).toISOString().slice(0, 10);

/** The usage of a stored session of an account. */
export function sessionUsage(r: SessionRecord & { accountId: string }): UsageIncrement[] {
  const base = { accountId: r.accountId, applicationId: r.applicationId ?? '', day: utcDay(r.startedAt) };
  const rows: UsageIncrement[] = [
    { ...base, category: 'sessions', count: 1 },
    { ...base, category: r.channel === 'TEXT' ? 'sessions.text' : 'sessions.voice', count: 1 },
  ];
  if (r.routedBy.type === 'token') rows.push({ ...base, category: 'launches', count: 1 });
  return rows;
}

/** The usage of alerts raised: their occurrences per account, application and day of the minute they fold into. */
export function alertsUsage(
  alerts: readonly { accountId: string; applicationId: string | null; foldAt: string; count: number }[],
): UsageIncrement[] {
  const sums = new Map<string, UsageIncrement>();
  for (const a of alerts) {
    const day = utcDay(a.foldAt);
    const key = `${a.accountId}\u0000${day}\u0000${a.applicationId ?? ''}`;
    const row = sums.get(key);
    if (row) row.count += a.count;
    else
      sums.set(key, {
        accountId: a.accountId,
        applicationId: a.applicationId ?? '',
        category: 'alerts',
        day,
        count: a.count,
      });
  }
  return sortIncrements([...sums.values()]);
}

/**
 * The usage of the notification attempts a batch stored (session deliveries count as sessions,
 * not here), summed per account, application, category and day, in key order (the order rows are
 * locked in).
 */
export function attemptsUsage(
  stored: readonly {
    subscription_id: string | null;
    account_id: string | null;
    application_id: string | null;
    outcome: string;
    created_at: Date | string;
  }[],
): UsageIncrement[] {
  const sums = new Map<string, UsageIncrement>();
  const add = (accountId: string, applicationId: string, category: UsageCategory, day: string) => {
    const key = `${accountId}\u0000${category}\u0000${day}\u0000${applicationId}`;
    const row = sums.get(key);
    if (row) row.count += 1;
    else sums.set(key, { accountId, applicationId, category, day, count: 1 });
  };
  for (const r of stored) {
    if (!r.subscription_id || !r.account_id || r.outcome === 'cancelled') continue;
    const day = utcDay(r.created_at);
    add(r.account_id, r.application_id ?? '', 'notifications', day);
    if (r.outcome === 'failed') add(r.account_id, r.application_id ?? '', 'notifications.failed', day);
  }
  return sortIncrements([...sums.values()]);
}

/** Increments in primary-key order, so concurrent writers lock rows in one order. */
export function sortIncrements(rows: UsageIncrement[]): UsageIncrement[] {
  const key = (r: UsageIncrement) => [r.accountId.padStart(20, '0'), r.category, r.day, r.applicationId];
  return rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}
