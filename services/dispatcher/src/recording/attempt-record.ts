// The record of one attempt as the webhooks service stores it (from the record batches). Kind and outcome
// go both as proto enums and as text: a webhooks service that predates the enums reads the text.
import type { Delivery } from '@switchboard/proto';
import type { Job } from '../jobs.ts';
import type { Outcome } from '../metrics.ts';

const KIND_ENUM = {
  session: 'DELIVERY_KIND_SESSION',
  notification: 'DELIVERY_KIND_NOTIFICATION',
} as const satisfies Record<Job['kind'], Delivery['deliveryKind']>;

const OUTCOME_ENUM = {
  succeeded: 'DELIVERY_OUTCOME_SUCCEEDED',
  retrying: 'DELIVERY_OUTCOME_RETRYING',
  failed: 'DELIVERY_OUTCOME_FAILED',
  cancelled: 'DELIVERY_OUTCOME_CANCELLED',
} as const satisfies Record<Outcome, Delivery['deliveryOutcome']>;

/**
 * What every record of a job says about its target (from the plan); `body` on the first record of a
 * message (kept for resends), `id` and `trigger` for tests and resends (ids given in advance).
 */
export type RecordBase = Pick<Delivery, 'subscriptionId' | 'applicationId' | 'accountId' | 'event' | 'targetUrl'> &
  Partial<Pick<Delivery, 'body' | 'id' | 'trigger'>> & {
    /** Recorded as this kind rather than the job's: a status callback is in its application's (session) log. */
    kind?: Job['kind'];
  };

/** What a record needs of its job. */
export type RecordedJob = Pick<Job, 'kind' | 'webhookId' | 'attempt'>;

export interface AttemptFields {
  outcome: Outcome;
  statusCode: number;
  durationMs: number;
  error: string | undefined;
  /** The receiver's answer to a notification (its first EXCERPT_BYTES), when one came. */
  response?: ResponseExcerpt | undefined;
}

/** Most bytes of a receiver's answer a record carries (UTF-8). */
export const EXCERPT_BYTES = 4096;

export interface ResponseExcerpt {
  contentType: string | undefined;
  body: Buffer;
  /** The answer was longer than what `body` holds. */
  tooLarge: boolean;
}

/** A body cut to at most `max` bytes of whole UTF-8 characters (a cut character's bytes are dropped). */
export function utf8Excerpt(body: Buffer, max: number): { text: string; cut: boolean } {
  if (body.length <= max) return { text: body.toString('utf8'), cut: false };
  let end = max;
  while (end > 0 && (body[end]! & 0xc0) === 0x80) end--;
  return { text: body.subarray(0, end).toString('utf8'), cut: true };
}

export function attemptRecord(job: RecordedJob, base: RecordBase, a: AttemptFields, now: Date = new Date()): Delivery {
  // Written out rather than spread: an object spread followed by more properties takes V8's slow
  // path, and this runs for every attempt.
  const kind = base.kind ?? job.kind;
  const record: Delivery = {
    subscriptionId: base.subscriptionId,
    applicationId: base.applicationId,
    accountId: base.accountId,
    event: base.event,
    targetUrl: base.targetUrl,
    kind,
    deliveryKind: KIND_ENUM[kind],
    messageId: job.webhookId,
    attempt: job.attempt,
    statusCode: a.statusCode,
    durationMs: Math.round(a.durationMs),
    outcome: a.outcome,
    deliveryOutcome: OUTCOME_ENUM[a.outcome],
    createdAt: now.toISOString(),
  };
  if (a.error) record.error = a.error.slice(0, 1000);
  if (base.body !== undefined) record.body = base.body;
  if (base.id !== undefined) record.id = base.id;
  if (base.trigger !== undefined) record.trigger = base.trigger;
  if (a.response) {
    const { text, cut } = utf8Excerpt(a.response.body, EXCERPT_BYTES);
    record.responseContentType = (a.response.contentType ?? '').slice(0, 200);
    record.responseExcerpt = text;
    record.responseTruncated = cut || a.response.tooLarge;
  }
  return record;
}

/** Marks a record cut down to fit in a NATS message; the webhooks service stores it as it is. */
export const TRUNCATED_MARK = '[record truncated to fit a NATS message]';

/** Encoded size of a value in bytes (as JSON, UTF-8). */
export const jsonBytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/**
 * A record no larger than `maxBytes` as JSON: its free text (target URL, error, event name) is cut,
 * longest first, and the error says it was truncated. The ids that make a record meaningful are
 * kept; the result may still exceed a `maxBytes` smaller than those.
 */
export function truncateRecord(d: Delivery, maxBytes: number): Delivery {
  if (jsonBytes(d) <= maxBytes) return d;
  // The body kept for resends goes first (the delivery then cannot be resent): the record matters more.
  if (d.body) {
    const { body: _dropped, ...rest } = d;
    return truncateRecord(rest, maxBytes);
  }
  // Then the receiver's answer, said to be cut.
  if (d.responseExcerpt) return truncateRecord({ ...d, responseExcerpt: '', responseTruncated: true }, maxBytes);
  const out: Delivery = { ...d, error: `${TRUNCATED_MARK} ${d.error ?? ''}`.trimEnd() };
  const fields = ['targetUrl', 'error', 'event'] as const;
  for (let i = 0; i < 64 && jsonBytes(out) > maxBytes; i++) {
    const longest = fields.reduce((a, b) => ((out[a] ?? '').length >= (out[b] ?? '').length ? a : b));
    const text = out[longest] ?? '';
    const keep = longest === 'error' ? TRUNCATED_MARK.length : 0;
    if (text.length <= keep) break;
    out[longest] = text.slice(0, Math.max(keep, Math.floor(text.length / 2)));
  }
  return out;
}
