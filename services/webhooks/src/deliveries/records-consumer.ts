// Stores the dispatchers' attempt records straight from JetStream: each message of
// `deliveries.records` is a batch (packages/contracts/src/delivery-records.ts), stored in one
// transaction and acknowledged once committed. A record that is refused is logged and dropped, so
// it never holds up the others; a batch that cannot be stored now (Postgres away) waits in
// JetStream and comes back with a growing delay. The consumer is the dispatchers' (they create
// the stream): until it exists this service looks for it every few seconds (events/dispatcher-consumer.ts).
import { Counter, type Logger, type Registry } from '@switchboard/observability';
import { backoffMs } from '@switchboard/config';
import type { ConsumerLoop, JsMsg, NatsHandle } from '@switchboard/messaging';
import { decodeRecordBatch, RECORDS_CONSUMER, DELIVERIES_STREAM } from '@switchboard/contracts';
import type { Delivery__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/Delivery';
import type { Deps } from '../context.ts';
import { runOnDispatcherConsumer } from '../events/dispatcher-consumer.ts';
import type { DisableRequest } from '../subscriptions/disable-subscriptions.ts';
import { checkBatch, storeAttempts, type Attempt, type StoredOutcome } from './record-attempts.ts';
import { topAccountsGauge } from './top-accounts.ts';

/** Postgres refused the data (SQLSTATE class 22, data exception, or 23, integrity constraint), not the connection. */
function isRefusedData(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A number as sent, or NaN (refused by the checks) when it is not one; absent is 0, as in the Delivery message. */
const num = (v: unknown): number => (v === undefined || v === null ? 0 : typeof v === 'number' ? v : Number.NaN);

/** A record as a dispatcher encoded it (a Delivery message as JSON), with the message's defaults for absent fields. */
export function deliveryFromJson(o: Record<string, unknown>): Delivery__Output {
  const d: Delivery__Output = {
    id: str(o.id),
    messageId: str(o.messageId),
    kind: str(o.kind),
    subscriptionId: str(o.subscriptionId),
    applicationId: str(o.applicationId),
    accountId: str(o.accountId),
    event: str(o.event),
    targetUrl: str(o.targetUrl),
    attempt: num(o.attempt),
    statusCode: num(o.statusCode),
    durationMs: num(o.durationMs),
    error: undefined,
    outcome: str(o.outcome),
    createdAt: str(o.createdAt),
    deliveryKind: (str(o.deliveryKind) || 'DELIVERY_KIND_UNSPECIFIED') as Delivery__Output['deliveryKind'],
    deliveryOutcome: (str(o.deliveryOutcome) || 'DELIVERY_OUTCOME_UNSPECIFIED') as Delivery__Output['deliveryOutcome'],
    body: undefined,
    trigger: str(o.trigger),
    responseTruncated: o.responseTruncated === true,
  };
  if (typeof o.error === 'string') d.error = o.error;
  if (typeof o.responseContentType === 'string') d.responseContentType = o.responseContentType;
  if (typeof o.responseExcerpt === 'string') d.responseExcerpt = o.responseExcerpt;
  if (typeof o.body === 'string') d.body = o.body;
  return d;
}

export interface RecordsConsumerOptions {
  /** Batches stored at once (RECORD_CONCURRENCY). */
  concurrency: number;
}

export function startRecordsConsumer(
  deps: Deps,
  nats: NatsHandle,
  logger: Logger,
  registry: Registry,
  opts: RecordsConsumerOptions,
): ConsumerLoop {
  const records = new Counter({
    name: 'webhooks_attempt_records_total',
    help: 'Attempt records received from the dispatchers, by outcome (stored; rejected: refused by the checks or by Postgres, and dropped).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const batches = new Counter({
    name: 'webhooks_record_batches_total',
    help: 'Record batches taken from JetStream, by outcome (stored; retried: storing failed, the batch waits in JetStream; rejected: not a batch, dropped).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  // By outcome only; the tenants with the most records are a bounded gauge (top-accounts.ts).
  const outcomes = new Counter({
    name: 'webhooks_delivery_outcomes_total',
    help: 'Attempt records stored, by outcome.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const top = topAccountsGauge(registry);
  const count = (stored: StoredOutcome[]) => {
    for (const r of stored) {
      outcomes.inc({ outcome: r.outcome });
      top.count(r.accountId ?? 'unknown', r.outcome);
    }
  };
  const log = logger.child({ consumer: RECORDS_CONSUMER });

  async function handle(msg: JsMsg): Promise<void> {
    let batch: ReturnType<typeof decodeRecordBatch>;
    try {
      batch = decodeRecordBatch(msg.data);
    } catch (err) {
      batches.inc({ outcome: 'rejected' });
      log.error({ seq: msg.seq, err: (err as Error).message }, 'not a record batch; dropped');
      msg.term();
      return;
    }
    const checked = checkBatch(batch.attempts.map(deliveryFromJson), batch.disable, batch.throttled);
    if (checked.errors.length > 0)
      log.error(
        { seq: msg.seq, errors: checked.errors.slice(0, 20), refused: checked.errors.length },
        'attempt records refused; dropped',
      );
    let refused = batch.attempts.length - checked.attempts.length;
    try {
      try {
        count(await storeAttempts(deps, checked.attempts, checked.disable, undefined, checked.throttled));
      } catch (err) {
        // Postgres refused the data itself (a value out of a column's range, say): one record must
        // not hold up the others, so they are stored one by one and only what Postgres refuses is dropped.
        if (!isRefusedData(err)) throw err;
        refused += await storeOneByOne(checked.attempts, checked.disable);
      }
    } catch (err) {
      const delay = backoffMs(msg.info.deliveryCount, { firstMs: 250, maxMs: 5000 });
      batches.inc({ outcome: 'retried' });
      log.warn(
        { err: (err as Error).message, records: checked.attempts.length, retryInMs: delay },
        'storing attempt records failed; they wait in JetStream',
      );
      msg.nak(delay);
      return;
    }
    batches.inc({ outcome: 'stored' });
    // A resend attempted frees its place in flight, and the next resend of its ordering key may go.
    if (checked.attempts.some((a) => a.trigger === 'resend' || a.trigger === 'recovery'))
      deps.dispatchers.resendsQueued();
    records.inc({ outcome: 'stored' }, batch.attempts.length - refused);
    if (refused > 0) records.inc({ outcome: 'rejected' }, refused);
    msg.ack();
  }

  /** Stores each record (and each disable request) in a transaction of its own; returns the records Postgres refused, dropped. */
  async function storeOneByOne(attempts: Attempt[], disable: DisableRequest[]): Promise<number> {
    let refused = 0;
    const each = async (a: Attempt[], d: DisableRequest[]) => {
      try {
        count(await storeAttempts(deps, a, d));
      } catch (err) {
        if (!isRefusedData(err)) throw err;
        refused += a.length;
        log.error(
          {
            err: (err as Error).message,
            attempt: a[0] && { messageId: a[0].messageId, attempt: a[0].attempt },
            disable: d[0],
          },
          'attempt record refused by Postgres; dropped',
        );
      }
    };
    for (const a of attempts) await each([a], []);
    for (const d of disable) await each([], [d]);
    return refused;
  }

  return runOnDispatcherConsumer(nats, {
    stream: DELIVERIES_STREAM,
    durable: RECORDS_CONSUMER,
    logger: log,
    concurrency: opts.concurrency,
    handle,
    missing: 'no records consumer yet (no dispatcher has started); looking again',
  });
}
