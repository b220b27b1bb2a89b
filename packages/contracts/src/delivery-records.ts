// Attempt records on their way from the dispatchers to the webhooks service. A dispatcher publishes
// them in batches to `deliveries.records` (in its deliveries stream): durable as soon as JetStream
// has them, so a delivery never waits for the database. The webhooks service stores the batches
// from one durable consumer, straight from JetStream. One definition of the batch for both sides.

/** The dispatcher's work-queue stream (retry jobs, attempt records, resend jobs). */
export const DELIVERIES_STREAM = 'SWITCHBOARD_DELIVERIES';
/** JetStream subject of record batches. */
export const RECORDS_SUBJECT = 'deliveries.records';
/** The durable consumer the webhooks service stores the batches from (storing a batch twice is harmless). */
export const RECORDS_CONSUMER = 'dispatcher-records';

/** A request to turn a subscription off (its target answered 410 Gone). */
/**
 * Why a waiting notification ended as failed without a further attempt (the dispatcher's delivery
 * backlog): past its account's cap of waiting deliveries, its oldest end as `backlog_full`; past
 * DELIVERY_MAX_AGE, as `expired`. The record's `error` starts with the reason and a colon; such a
 * delivery is recovered like any failed one.
 */
export const WAITING_END_REASONS = ['backlog_full', 'expired'] as const;
export type WaitingEndReason = (typeof WAITING_END_REASONS)[number];

export interface DisableRequest {
  subscriptionId: string;
  reason: string;
}

/**
 * Deliveries a dispatcher held for a later slot of their subscription's rate limit, counted per
 * subscription and minute (the statistics' `throttled`): no attempt record stands for them.
 */
export interface ThrottledCount {
  subscriptionId: string;
  /** Start of the minute (ISO 8601). */
  at: string;
  count: number;
}

/**
 * A batch as it travels: the records (objects of the Delivery message, as JSON), the subscriptions
 * to disable and, in batches of their own, the throttled counts (absent from batches of records).
 */
export interface RecordBatch {
  attempts: Record<string, unknown>[];
  disable: DisableRequest[];
  throttled?: ThrottledCount[];
}

/** A batch of records already encoded as JSON, one text each: `{"attempts":[...],"disable":[...]}`. */
export function batchJson(attempts: readonly string[], disable: readonly string[]): string {
  return `{"attempts":[${attempts.join(',')}],"disable":[${disable.join(',')}]}`;
}

/** A batch of throttled counts only: `{"attempts":[],"disable":[],"throttled":[...]}`. */
export function throttledBatchJson(counts: readonly ThrottledCount[]): string {
  return `{"attempts":[],"disable":[],"throttled":${JSON.stringify(counts)}}`;
}

/** Bytes of a batch's envelope: `{"attempts":[],"disable":[]}`. */
export const BATCH_ENVELOPE_BYTES = 32;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A batch as a dispatcher wrote it, checked for its shape only, without copying the records: the
 * webhooks service checks every record before storing it (and drops, one by one, what it refuses).
 * Throws when the message is not such a batch.
 */
export function decodeRecordBatch(data: Uint8Array): RecordBatch {
  const b: unknown = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8'));
  if (!isObject(b) || !Array.isArray(b.attempts) || !Array.isArray(b.disable))
    throw new Error('expected {"attempts": [...], "disable": [...]}');
  b.attempts.forEach((a, i) => {
    if (!isObject(a)) throw new Error(`attempts.${i}: expected an object`);
  });
  b.disable.forEach((d, i) => {
    if (!isObject(d) || typeof d.subscriptionId !== 'string' || typeof d.reason !== 'string')
      throw new Error(`disable.${i}: expected {subscriptionId, reason} strings`);
  });
  if (b.throttled !== undefined) {
    if (!Array.isArray(b.throttled)) throw new Error('throttled: expected an array');
    b.throttled.forEach((t, i) => {
      if (
        !isObject(t) ||
        typeof t.subscriptionId !== 'string' ||
        typeof t.at !== 'string' ||
        typeof t.count !== 'number'
      )
        throw new Error(`throttled.${i}: expected {subscriptionId, at, count}`);
    });
  }
  return b as unknown as RecordBatch;
}
