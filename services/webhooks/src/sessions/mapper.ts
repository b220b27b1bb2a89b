import type { SessionRecord as Message } from '@switchboard/proto/generated/switchboard/webhooks/v1/SessionRecord';
import type { FullSessionRow, SessionRow, SignalRow } from './repository.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A session as the list shows it: without attempts, answer or signals. */
export function toMessage(r: SessionRow): Message {
  return {
    id: r.id,
    applicationId: r.application_id ?? '',
    accountId: r.account_id,
    channel: r.channel,
    from: r.from_id ?? undefined,
    to: r.to_id ?? undefined,
    startedAt: iso(r.started_at),
    routedByType: r.routed_by_type,
    routedByValue: r.routed_by_value ?? undefined,
    outcome: r.outcome,
    failureReason: r.failure_reason ?? undefined,
    attemptCount: r.attempt_count,
    attempts: [],
    signals: [],
  };
}

/** A whole session: its attempts with the answers' excerpts, its instructions, its signals. */
export function toFullMessage(r: FullSessionRow, signals: SignalRow[]): Message {
  return {
    ...toMessage(r),
    attempts: r.attempts.map((a) => ({
      at: a.at,
      url: a.url ?? '',
      role: a.role,
      status: a.status,
      durationMs: a.durationMs,
      error: a.error ?? undefined,
      responseContentType: a.responseContentType ?? undefined,
      responseExcerpt: a.responseExcerpt ?? undefined,
      responseTruncated: a.responseTruncated,
    })),
    instructions: r.instructions ?? undefined,
    signals: signals.map((s) => ({ at: iso(s.at), value: s.value, status: s.status })),
  };
}
