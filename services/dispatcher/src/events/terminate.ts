import type { JsMsg } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import type { DispatcherMetrics } from '../metrics.ts';

/** Rejects a message for good (malformed or schema-invalid): counted and logged, never redelivered. */
export function terminate(msg: JsMsg, reason: string, deps: { metrics: DispatcherMetrics; logger: Logger }): void {
  // No reason argument: NATS 2.9 does not understand "+TERM <reason>" and would keep the message.
  msg.term();
  deps.metrics.terminated.inc({ subject: msg.subject });
  deps.logger.warn({ subject: msg.subject, seq: msg.seq, reason }, 'message rejected (terminated)');
}
