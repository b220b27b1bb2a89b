// The dead-letter subject (SUBJECTS.eventDead, `events.dead`, stream SWITCHBOARD_CORE): every
// inbound event refused for good is copied there as {"subject", "reason", "event", "stream",
// "seq"} before it is terminated, so an operator can read why and republish `event` to `subject`
// once the cause is fixed (docs/events.md#dead-letters).
import { SUBJECTS } from '@switchboard/events';
import type { JetStreamClient, JsMsg } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import type { DispatcherMetrics } from '../metrics.ts';
import type { DeadReason } from './poison.ts';

export interface DeadLetterDeps {
  js: JetStreamClient;
  /** The server's max_payload (bytes) as the connection reports it. */
  maxPayload: () => number;
  metrics: DispatcherMetrics;
  logger: Logger;
}

/**
 * The dead letter of a message. The event goes in verbatim when it is JSON (it is never parsed and
 * re-encoded: a body too deep to serialise must still fit), else as a string; when the copy would
 * not fit in a message, `event` is null and `eventTruncated` true (stream and seq still find it).
 */
export function deadLetterBody(
  msg: Pick<JsMsg, 'subject' | 'seq' | 'data'> & { info: { stream: string } },
  reason: string,
  maxBytes: number,
): string {
  const text = Buffer.from(msg.data).toString('utf8');
  let event: string;
  try {
    JSON.parse(text);
    event = text;
  } catch {
    event = JSON.stringify(text);
  }
  const head = `{"subject":${JSON.stringify(msg.subject)},"reason":${JSON.stringify(reason.slice(0, 2000))},"stream":${JSON.stringify(msg.info.stream)},"seq":${msg.seq}`;
  const full = `${head},"event":${event}}`;
  return Buffer.byteLength(full) <= maxBytes ? full : `${head},"event":null,"eventTruncated":true}`;
}

/**
 * Copies the message to the dead-letter subject, then terminates it. When the copy cannot be
 * published (NATS trouble) the message is handed back instead, so nothing is lost.
 */
export async function deadLetter(msg: JsMsg, reason: DeadReason, detail: string, deps: DeadLetterDeps): Promise<void> {
  try {
    await deps.js.publish(SUBJECTS.eventDead, deadLetterBody(msg, detail, deps.maxPayload() - 1024), {
      msgID: `dead:${msg.info.stream}:${msg.seq}`,
    });
  } catch (err) {
    deps.logger.warn(
      { subject: msg.subject, seq: msg.seq, err: (err as Error).message },
      'dead-lettering failed; the event comes back',
    );
    msg.nak(5000);
    return;
  }
  // No reason argument: NATS 2.9 does not understand "+TERM <reason>" and would keep the message.
  msg.term();
  deps.metrics.terminated.inc({ subject: msg.subject });
  deps.metrics.deadLettered.inc({ subject: msg.subject, reason });
  deps.logger.warn(
    { subject: msg.subject, seq: msg.seq, reason, detail },
    'event refused for good; dead-lettered to events.dead',
  );
}
