// Test fixture of the dispatcher: the real applications and webhooks services in-process
// (test/support startServices) on a fresh database and a private NATS server; the tests start
// dispatchers in-process or as child processes (for kill -9) with a short retry schedule.
import { afterAll, beforeAll } from 'vitest';
import { STREAMS } from '@switchboard/events';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import {
  startDeliveryServices,
  startNatsServer,
  startReceiver,
  type NatsServer,
  waitFor,
  type Receiver,
  type Responder,
  type RunningDispatcher,
  type Services,
  useFixture,
} from '../../../test/support';
import type { SessionFailed, SessionInstructions } from '../src/delivery/session-loop';
import { CONSUMERS, DELIVERIES_STREAM } from '../src/streams';

/** Environment every dispatcher of the tests starts with (short schedule, loopback allowed). */
export const TEST_DISPATCHER_ENV = {
  DELIVERY_RETRY_SCHEDULE: '200ms,400ms,800ms',
  DELIVERY_TIMEOUT_MS: '3000',
  JETSTREAM_ACK_WAIT: '8s',
  DELIVERY_BREAKER_VOLUME_THRESHOLD: '5',
  DELIVERY_BREAKER_RESET_TIMEOUT: '1s',
  DELIVERY_BREAKER_WINDOW: '5s',
  RECORD_FLUSH_INTERVAL: '20ms',
};

export type Harness = Services<{ webhooks: true }>;

export function startHarness(): Promise<Harness> {
  return startDeliveryServices({ dispatcherEnv: TEST_DISPATCHER_ENV });
}

/**
 * The fixture of a whole test file: a harness and one receiver started before all its tests and
 * stopped after them, and a dispatcher started with `dispatcherEnv` when given. `onReady` receives
 * them once started (e.g. `useHarness((f) => ({ h, rx } = f))`).
 */
export function useHarness(onReady: (f: { h: Harness; rx: Receiver }) => void): void;
export function useHarness(
  onReady: (f: { h: Harness; rx: Receiver; dispatcher: RunningDispatcher }) => void,
  dispatcherEnv: Record<string, string>,
): void;
export function useHarness(
  onReady: (f: { h: Harness; rx: Receiver; dispatcher: RunningDispatcher }) => void,
  dispatcherEnv?: Record<string, string>,
): void {
  let h: Harness | undefined;
  let rx: Receiver | undefined;
  beforeAll(async () => {
    h = await startHarness();
    rx = await startReceiver();
    const dispatcher = dispatcherEnv
      ? await h.startDispatcher(dispatcherEnv)
      : (undefined as unknown as RunningDispatcher);
    onReady({ h, rx, dispatcher });
  });
  afterAll(async () => {
    await h?.stop();
    await rx?.close();
  });
}

/**
 * A dispatcher of one describe block: started with `env` on the harness `harness()` answers before
 * the block's tests, stopped after them; `onReady` receives it (e.g. `useDispatcher(() => h, env, (d) => (dispatcher = d))`).
 */
export function useDispatcher(
  harness: () => Pick<Harness, 'startDispatcher'>,
  env: Record<string, string>,
  onReady: (d: RunningDispatcher) => void,
): void {
  useFixture(
    () => harness().startDispatcher(env),
    (d) => d.stop(),
    onReady,
  );
}

/**
 * A new account of `h` with a cdrCreated subscription (resource all) to the receiver's path
 * `/<name>/<account>`, which answers as `respond` does when given (else as the receiver does).
 */
export async function cdrTarget(h: Harness, rx: Receiver, name: string, respond?: Responder) {
  const acct = await h.newAccount();
  const path = `/${name}/${acct}`;
  if (respond) rx.on(path, respond);
  const sub = await h.subscribe(acct, { event: 'cdrCreated', resource: 'all', targetUrl: rx.url(path) });
  return { acct, path, sub };
}

export { cdrEvent } from '../../../test/support';

/** What the dispatcher published for the telephony core about one session. */
export interface SessionOutcome {
  subject: 'sessions.instructions' | 'sessions.failed';
  body: Partial<SessionInstructions> & Partial<SessionFailed>;
  at: number;
}

/** Collects sessions.instructions and sessions.failed as they are published (a core subscription). */
export function watchSessionOutcomes(bus: NatsHandle) {
  const seen: SessionOutcome[] = [];
  const subs = ['sessions.instructions', 'sessions.failed'].map((subject) =>
    bus.nc.subscribe(subject, {
      callback: (err, m) =>
        void (err || seen.push({ subject: m.subject, body: m.json(), at: Date.now() } as SessionOutcome)),
    }),
  );
  return {
    seen,
    /** Outcomes published for a session id. */
    of: (sessionId: string) => seen.filter((o) => o.body.sessionId === sessionId),
    /** The first outcome of a session, waited for. */
    next: (sessionId: string, timeoutMs = 15_000) =>
      waitFor(() => seen.find((o) => o.body.sessionId === sessionId), {
        what: `outcome of session ${sessionId}`,
        timeoutMs,
        intervalMs: 5,
      }),
    stop: () => {
      for (const s of subs) s.unsubscribe();
    },
  };
}

/**
 * Waits until the dispatchers have handled every inbound event up to `seq` (by default the last one
 * published so far): the events consumer's acknowledgement floor has reached it, so each event's
 * first attempts are made and recorded and its retries scheduled. A test that asserts an event was
 * NOT sent somewhere waits for this rather than for a fixed time.
 */
export async function eventsHandled(bus: NatsHandle, seq?: number): Promise<void> {
  const upTo = seq ?? (await bus.jsm.streams.info(STREAMS.events.name)).state.last_seq;
  await waitFor(
    async () => (await bus.jsm.consumers.info(STREAMS.events.name, CONSUMERS.events)).ack_floor.stream_seq >= upTo,
    { what: `events up to ${upTo} handled`, intervalMs: 20 },
  );
}

/**
 * Waits until no retry job is waiting or undelivered: nothing scheduled can make another attempt.
 * A test that asserts no further attempt comes waits for this rather than for a fixed time.
 */
export async function retriesIdle(bus: NatsHandle): Promise<void> {
  await waitFor(
    async () => {
      const c = await bus.jsm.consumers.info(DELIVERIES_STREAM, CONSUMERS.retry);
      return c.num_pending + c.num_ack_pending === 0;
    },
    { what: 'no retry waiting', intervalMs: 20 },
  );
}

/**
 * A private NATS server and two connections to it standing for two dispatcher replicas, for the
 * tests of state replicas share (JetStream key-value, compare-and-set); `prepare` creates the bucket.
 */
export function useTwoReplicas(
  logger: Logger,
  prepare: (jsm: NatsHandle['jsm']) => Promise<unknown>,
  onReady: (replicas: { a: NatsHandle; b: NatsHandle; url: string }) => void,
): void {
  let nats: NatsServer | undefined;
  let a: NatsHandle | undefined;
  let b: NatsHandle | undefined;
  beforeAll(async () => {
    nats = await startNatsServer();
    a = await connectNats(nats.url, logger, 'replica-a');
    b = await connectNats(nats.url, logger, 'replica-b');
    await prepare(a.jsm);
    onReady({ a, b, url: nats.url });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await nats?.destroy();
  });
}
