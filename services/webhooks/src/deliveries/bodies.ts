// The bodies of delivered messages, kept so that a delivery can be resent with the same bytes
// (docs/events.md#operating-your-endpoints). A body arrives with the first attempt record of its
// message and is stored once per message and target, compressed (JSON bodies shrink to a half or
// less), and deleted with the delivery records after the retention period.
//
// Compression is raw DEFLATE (the only `encoding` of the table, 'deflate'), with a window no larger
// than the body: for the small bodies of notifications it sets up in a fraction of the time brotli
// did and stores within a few percent of its size.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The smallest window (2^windowBits bytes) that holds the whole body, between zlib's bounds 9 and 15. */
function windowBitsFor(bytes: number): number {
  return Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes + 1))));
}

export function compressBody(body: string): Buffer {
  const raw = Buffer.from(body, 'utf8');
  const windowBits = windowBitsFor(raw.length);
  // A smaller window and hash table are also less memory to set up for every body.
  return deflateRawSync(raw, { level: 6, windowBits, memLevel: Math.min(8, Math.max(1, windowBits - 6)) });
}

export function decompressBody(stored: Buffer): string {
  return inflateRawSync(stored).toString('utf8');
}

/** Most bytes of a kept body one record's view shows (GetDelivery's `request`). */
export const SHOWN_BODY_BYTES = 16 * 1024;

/** A kept body as one record's view shows it: at most `max` bytes of whole UTF-8 characters, its size, and whether it was cut. */
export function shownBody(stored: Buffer, max = SHOWN_BODY_BYTES): { body: string; bytes: number; truncated: boolean } {
  const raw = inflateRawSync(stored);
  if (raw.length <= max) return { body: raw.toString('utf8'), bytes: raw.length, truncated: false };
  // A cut inside a character drops its partial bytes.
  let end = max;
  while (end > 0 && (raw[end]! & 0xc0) === 0x80) end--;
  return { body: raw.subarray(0, end).toString('utf8'), bytes: raw.length, truncated: true };
}

export interface BodyToKeep {
  messageId: string;
  /** The subscription id of a notification, the application id of a session. */
  target: string;
  body: string;
  /** The session a notification is about (its `data.sessionId`), which a recovery can filter by. */
  sessionId?: string | undefined;
}

/** Longest session id a kept body records (longer ones are no session's id: session ids have at most 400 characters). */
export const SESSION_ID_MAX = 400;

/**
 * The session a notification body is about: its `data.sessionId` when that is non-empty text of at
 * most SESSION_ID_MAX characters. Bodies that do not mention it are not parsed.
 */
export function sessionOfNotification(body: string): string | undefined {
  if (!body.includes('"sessionId"')) return undefined;
  try {
    const data = (JSON.parse(body) as { data?: { sessionId?: unknown } } | null)?.data;
    const id = data && typeof data === 'object' ? data.sessionId : undefined;
    return typeof id === 'string' && id.length > 0 && id.length <= SESSION_ID_MAX ? id : undefined;
  } catch {
    return undefined;
  }
}
