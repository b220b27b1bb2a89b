// Session records on their way from the dispatchers to the webhooks service (docs/events.md#session-records):
// one JSON message per session that ended, published to `deliveries.sessions` in the dispatcher's
// work-queue stream before the session's event is acknowledged, and stored by the webhooks service
// from its own durable consumer. One definition of the record for both sides.

/** JetStream subject of session records (in DELIVERIES_STREAM). */
export const SESSION_RECORDS_SUBJECT = 'deliveries.sessions';
/** The durable consumer the webhooks service stores session records from (storing one twice is harmless). */
export const SESSION_RECORDS_CONSUMER = 'webhooks-session-records';
/** Largest excerpt of an application's answer kept in a record, in bytes of UTF-8. */
export const EXCERPT_BYTES = 4096;

export type SessionOutcome = 'answered' | 'fallback' | 'failed';
export type RoutedByType = 'application' | 'address' | 'token';

/** The first EXCERPT_BYTES of a text, cut on a character boundary. */
export interface Excerpt {
  text: string;
  truncated: boolean;
}

/** One HTTP attempt of a session (or a URL passed over without one: status 0, no time). */
export interface SessionRecordAttempt {
  at: string;
  url: string | null;
  role: 'primary' | 'fallback';
  status: number;
  durationMs: number;
  error: string | null;
  responseContentType: string | null;
  responseExcerpt: string | null;
  responseTruncated: boolean;
}

/** A session as a dispatcher saw it, from its event to its outcome. */
export interface SessionRecord {
  id: string;
  /** null: nobody owns the address the session was dialled at. */
  applicationId: string | null;
  accountId: string | null;
  channel: 'VOICE' | 'TEXT';
  from: string | null;
  to: string | null;
  startedAt: string;
  routedBy: { type: RoutedByType; value: string | null };
  outcome: SessionOutcome;
  attempts: SessionRecordAttempt[];
  instructions: { at: string; bytes: number; excerpt: string; truncated: boolean } | null;
  failure: { reason: string } | null;
  /** The statusCallbackUrl of a Session API launch: its sessionStatus events also go there. */
  statusCallbackUrl?: string | null | undefined;
}

/** The first EXCERPT_BYTES bytes of `body` as UTF-8 text, never cutting a character in two. */
export function excerptOf(body: Buffer | string, maxBytes = EXCERPT_BYTES): Excerpt {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (buf.length <= maxBytes) return { text: buf.toString('utf8'), truncated: false };
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return { text: buf.subarray(0, end).toString('utf8'), truncated: true };
}
