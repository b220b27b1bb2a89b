// Stores what the session inspector shows, straight from JetStream: the dispatchers' session
// records (deliveries.sessions, one per session that ended) and the signals the Session API queued
// (sessions.signal), and the sessions' ends (sessions.ended, or a cdr.created naming the session:
// sessionStatus `ended`). Each message is acknowledged once stored; one that cannot be stored now
// (Postgres away) waits in JetStream and comes back with a growing delay; one that does not fit
// the shape is dropped, logged. The session records' consumer is the dispatchers' (they create the
// stream): until it exists this service looks for it every few seconds (events/dispatcher-consumer.ts).
import { DELIVERIES_STREAM, SESSION_RECORDS_CONSUMER } from '@switchboard/contracts';
import { backoffMs } from '@switchboard/config';
import { Counter, type Logger, type Registry } from '@switchboard/observability';
import {
  ensureConsumer,
  runConsumerLoop,
  type ConsumerLoop,
  type JsMsg,
  type NatsHandle,
} from '@switchboard/messaging';
import { STREAMS, SUBJECTS, launchRefusedSchema, sessionEndedSchema } from '@switchboard/events';
import { storeLaunchRefused } from '../alerts/launch-alerts.ts';
import { sessionAlerts } from '../alerts/session-alerts.ts';
import type { Deps } from '../context.ts';
import { runOnDispatcherConsumer } from '../events/dispatcher-consumer.ts';
import { sessionRecordSchema, signalSchema } from './record-shape.ts';
import { storeSession } from './store-session.ts';
import { storeEnd } from './store-end.ts';
import { storeSignal } from './store-signal.ts';

/** The durable consumer of sessions.signal on the core stream, this service's own. */
export const SIGNALS_CONSUMER = 'webhooks-session-signals';
/** Its consumers of the sessions' ends: sessions.ended (core stream) and cdr.created (events stream). */
export const ENDS_CONSUMER = 'webhooks-session-ends';
/** Its durable consumer of launches.refused (internal stream): the launch.refused alert. */
export const LAUNCHES_REFUSED_CONSUMER = 'webhooks-launches-refused';

export interface SessionConsumers {
  started: Promise<void>;
  stop(): Promise<void>;
}

export async function startSessionConsumers(
  deps: Deps,
  nats: NatsHandle,
  logger: Logger,
  registry: Registry,
): Promise<SessionConsumers> {
  const records = new Counter({
    name: 'webhooks_session_records_total',
    help: 'Session records, signals, ends and launch refusals received, by kind (session, signal, end, refusal) and outcome (stored; duplicate: stored before; rejected: malformed, dropped).',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const log = logger.child({ consumer: SESSION_RECORDS_CONSUMER });

  /** Parses, stores and acknowledges one message; a failure to store hands it back with a delay. */
  const handler =
    <T>(
      kind: 'session' | 'signal' | 'end' | 'refusal',
      parse: (v: unknown) => T,
      store: (v: T, msg: JsMsg) => Promise<boolean>,
    ) =>
    async (msg: JsMsg): Promise<void> => {
      let value: T;
      try {
        value = parse(msg.json());
      } catch (err) {
        records.inc({ kind, outcome: 'rejected' });
        log.error({ seq: msg.seq, kind, err: (err as Error).message }, 'malformed session record; dropped');
        msg.term();
        return;
      }
      try {
        const stored = await store(value, msg);
        records.inc({ kind, outcome: stored ? 'stored' : 'duplicate' });
      } catch (err) {
        const delay = backoffMs(msg.info.deliveryCount, { firstMs: 250, maxMs: 5000 });
        log.warn({ kind, err: (err as Error).message, retryInMs: delay }, 'storing a session record failed; it waits');
        msg.nak(delay);
        return;
      }
      msg.ack();
    };

  const onSession = handler(
    'session',
    (v) => sessionRecordSchema.parse(v),
    async (r) => {
      const stored = await storeSession(deps, r);
      if (stored && r.accountId) for (const a of sessionAlerts(r)) deps.alertsRaised(a.code);
      return stored;
    },
  );
  const onSignal = handler(
    'signal',
    (v) => signalSchema.parse(v),
    (s, msg) =>
      storeSignal(deps, {
        sessionId: s.sessionId,
        value: s.value,
        at: new Date(Number(msg.timestampNanos / 1_000_000n)),
        seq: msg.seq,
      }),
  );

  // A session's end: the core's sessions.ended, or the one the dispatcher passes on from a
  // cdr.created that names the session (the inbound work queue has the dispatcher as its one reader).
  const onEnd = handler(
    'end',
    (v) => sessionEndedSchema.parse(v),
    (e, msg) => storeEnd(deps, e, msg.info.deliveryCount),
  );
  // Launches refused by an account's budget: the launch.refused alert.
  const onRefused = handler(
    'refusal',
    (v) => launchRefusedSchema.parse(v),
    (e) => storeLaunchRefused(deps, e),
  );
  const own = async (
    stream: string,
    durable: string,
    subject: string,
    handle: (msg: JsMsg) => Promise<void>,
    concurrency = 4,
  ): Promise<Pick<ConsumerLoop, 'started' | 'stop'>> => {
    const run = () =>
      runConsumerLoop({
        js: nats.js,
        stream,
        durable,
        logger: logger.child({ consumer: durable }),
        concurrency,
        handle,
      });
    try {
      await ensureConsumer(nats.jsm, stream, { durable_name: durable, filter_subject: subject });
      return run();
    } catch (err) {
      if (!/not a valid subset|no matching subject/i.test((err as Error)?.message ?? '')) throw err;
    }
    // The stream's subjects are the dispatcher's to set (decision 0015): during an upgrade this
    // service can start before the dispatcher added the subject; the consumer is made once it can be.
    log.warn({ stream, subject }, 'the stream has no such subject yet (the dispatcher sets it); consuming once it has');
    let stopped = false;
    let loop: ConsumerLoop | undefined;
    const waiting = (async () => {
      while (!stopped) {
        await new Promise((r) => setTimeout(r, 1000));
        try {
          await ensureConsumer(nats.jsm, stream, { durable_name: durable, filter_subject: subject });
          if (!stopped) loop = run();
          return;
        } catch {
          // not yet
        }
      }
    })();
    return {
      started: Promise.resolve(),
      async stop() {
        stopped = true;
        await waiting;
        await loop?.stop();
      },
    };
  };
  const signals = await own(STREAMS.core.name, SIGNALS_CONSUMER, SUBJECTS.sessionSignal, onSignal);
  // One at a time, in the order published: the core's own end of a session comes before the one
  // passed on from its CDR, and is the one recorded.
  const ends = await own(STREAMS.core.name, ENDS_CONSUMER, SUBJECTS.sessionEnded, onEnd, 1);
  const refusals = await own(STREAMS.internal.name, LAUNCHES_REFUSED_CONSUMER, SUBJECTS.launchRefused, onRefused, 1);

  const sessions = runOnDispatcherConsumer(nats, {
    stream: DELIVERIES_STREAM,
    durable: SESSION_RECORDS_CONSUMER,
    logger: log,
    concurrency: 4,
    handle: onSession,
    missing: 'no session records consumer yet (no dispatcher has started)',
  });
  return {
    started: Promise.all([signals.started, sessions.started, ends.started, refusals.started]).then(() => undefined),
    async stop() {
      await Promise.all([sessions.stop(), signals.stop(), ends.stop(), refusals.stop()]);
    },
  };
}
