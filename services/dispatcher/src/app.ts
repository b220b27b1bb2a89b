// Composition root of the dispatcher: NATS streams and consumers, gRPC clients, the delivery
// pipeline and the ops server, built from one Config. createApp(config).start() runs it;
// stop() drains it (stop pulling, finish attempts in flight, flush records, drain NATS).
import {
  connectNats,
  runConsumerLoop,
  type ConsumerLoop,
  type JsMsg,
  type NatsConnection,
  type NatsHandle,
  storeLimitsOf,
} from '@switchboard/messaging';
import { STREAMS } from '@switchboard/events';
import { createLogger, startOpsServer, type Logger, type OpsServer } from '@switchboard/observability';
import { TokenCache } from './delivery/endpoint-auth.ts';
import { SessionRegistry } from '@switchboard/contracts';
import { addressesClient, applicationsClient, webhooksClient } from '@switchboard/proto';
import type { Config } from './config.ts';
import { pollConsumerBacklog } from './consumer-backlog.ts';
import { DeliveryBacklog } from './delivery/backlog.ts';
import { BreakerMap } from './delivery/breakers.ts';
import { HostLimiter } from './delivery/host-limiter.ts';
import { HttpSender } from './delivery/http-sender.ts';
import { InFlight } from './delivery/in-flight.ts';
import { ensureOrderingBucket, Ordering, ORDERING_STREAM } from './delivery/ordering.ts';
import { startOrderingSweep } from './delivery/ordering-sweep.ts';
import { ScheduledShares } from './delivery/scheduled-shares.ts';
import { SignedSender } from './delivery/signed-sender.ts';
import { Throttle } from './delivery/throttle.ts';
import { SessionLoop } from './delivery/session-loop.ts';
import { DeliveryWorker } from './delivery/worker.ts';
import { ResendWorker } from './delivery/resend-worker.ts';
import { listenForTests } from './delivery/test-send.ts';
import { handleEvent } from './events/handle-event.ts';
import { Lookups } from './lookup/lookups.ts';
import { createMetrics, type DispatcherMetrics } from './metrics.ts';
import { AttemptRecorder, recordBatchBytes } from './recording/attempt-recorder.ts';
import { RecordBuffer, whileRecordsFit } from './recording/record-buffer.ts';
import { SessionRecorder } from './recording/session-recorder.ts';
import { ThrottledCounts } from './recording/throttled-counts.ts';
import { CONSUMERS, DELIVERIES_STREAM, ensureDispatcherStreams, JOB_SUBJECTS } from './streams.ts';

export type { Config } from './config.ts';
export { loadConfig } from './config.ts';

/** Most (subscription, minute) counts of throttled deliveries held while they cannot be sent. */
const THROTTLED_COUNTS_MAX = 10_000;

export interface DispatcherApp {
  readonly logger: Logger;
  readonly metrics: DispatcherMetrics;
  start(): Promise<{ opsPort: number }>;
  stop(): Promise<void>;
}

export interface AppOptions {
  logger?: Logger;
}

/** What exists only while the app runs: made by start(), taken apart by stop(). */
interface Running {
  nats: NatsHandle;
  inFlight: InFlight;
  recorder: AttemptRecorder;
  sessionRecorder: SessionRecorder;
  throttledCounts: ThrottledCounts;
  loops: ConsumerLoop[];
  /** True until stop() has stopped the consumer loops (readiness). */
  consuming: boolean;
  stopListening: () => void;
  stopTests: () => Promise<void>;
  /** Stops the background loops: the consumer backlog poll and the ordering sweep. */
  stopPolling: () => Promise<void>;
  ops: OpsServer;
}

export function createApp(config: Config, options: AppOptions = {}): DispatcherApp {
  const logger = options.logger ?? createLogger('dispatcher', config.LOG_LEVEL);
  const breakers = new BreakerMap(
    {
      errorThresholdPercentage: config.DELIVERY_BREAKER_ERROR_THRESHOLD_PERCENT,
      volumeThreshold: config.DELIVERY_BREAKER_VOLUME_THRESHOLD,
      resetTimeoutMs: config.DELIVERY_BREAKER_RESET_TIMEOUT,
      windowMs: config.DELIVERY_BREAKER_WINDOW,
      windowBuckets: config.DELIVERY_BREAKER_WINDOW_BUCKETS,
      idleEvictMs: config.DELIVERY_BREAKER_IDLE_EVICT,
      maxEntries: config.DELIVERY_BREAKER_MAX_LANES,
    },
    logger,
    Date.now,
    (lane, state) => logger.info({ lane, state }, 'circuit breaker state changed'),
  );
  const limiter = new HostLimiter({
    global: config.DELIVERY_CONCURRENCY,
    perHost: config.DELIVERY_HOST_CONCURRENCY,
    maxQueuePerHost: config.DELIVERY_HOST_QUEUE,
    maxQueued: config.DELIVERY_QUEUE,
    // Slower than half the timeout on every slot: hanging, not just busy (a loaded machine can
    // stretch a fast answer past a second, and waiting in memory is the cheaper place to wait).
    congestedAfterMs: config.DELIVERY_TIMEOUT_MS / 2,
    gate: (host) => breakers.gate(host),
    // No attempt starts while the records of earlier ones fill their buffer.
    held: () => recordBuffer.full,
  });
  // Made once connected (start); read by the metrics.
  let backlog: DeliveryBacklog | undefined;
  const metrics = createMetrics(
    () => breakers.counts(),
    () => ({ waiting: limiter.waiting, waitingHosts: limiter.waitingHosts, active: limiter.active }),
    () => backlog?.fullest() ?? 0,
  );
  const recordBuffer = new RecordBuffer(config.RECORD_BUFFER_MAX_BYTES, (b) => {
    metrics.recordBufferBytes.set(b);
    if (b < config.RECORD_BUFFER_MAX_BYTES) limiter.resume();
  });
  // A consumer's handler starts on a message only while the records held fit their bound.
  const roomy = (handle: (m: JsMsg) => Promise<void>) =>
    whileRecordsFit(recordBuffer, handle, () => metrics.recordBackPressure.inc());
  const clientOpts = { defaultTimeoutMs: 3000, metrics: { registry: metrics.registry, prefix: 'dispatcher' } };
  const appsOpts = { ...clientOpts, token: config.APPLICATIONS_RPC_TOKEN };
  const apps = applicationsClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const hooks = webhooksClient(config.WEBHOOKS_GRPC_URL, { ...clientOpts, token: config.WEBHOOKS_RPC_TOKEN });
  const addresses = addressesClient(config.APPLICATIONS_GRPC_URL, appsOpts);
  const lookups = new Lookups(apps, hooks, addresses, config.LOOKUP_CACHE_TTL, logger);
  const http = new HttpSender({
    timeoutMs: config.DELIVERY_TIMEOUT_MS,
    allowedCidrs: config.DELIVERY_ALLOWED_CIDRS,
    logger,
  });
  const sender = new SignedSender(http, breakers, limiter);
  const tokens = new TokenCache({ max: config.DELIVERY_OAUTH2_TOKENS_MAX });
  const retrySettings = {
    retry: {
      schedule: config.DELIVERY_RETRY_SCHEDULE,
      jitter: config.DELIVERY_RETRY_JITTER,
      retryAfterMaxMs: config.DELIVERY_RETRY_AFTER_MAX,
    },
    giveUpAfterMs: config.DELIVERY_GIVE_UP_AFTER,
  };
  // A job handed back by another replica still counts here until well after it was due; jobs due
  // more than two ack waits ahead are far off.
  const shares = new ScheduledShares(
    config.DELIVERY_SCHEDULED_PER_TARGET,
    config.JETSTREAM_ACK_WAIT + 60_000,
    2 * config.JETSTREAM_ACK_WAIT,
  );

  let running: Running | undefined;
  let accepting = false;

  async function start(): Promise<Running> {
    const nats = await connectNats(config.NATS_URL, logger, 'dispatcher', {
      user: config.NATS_USER,
      password: config.NATS_PASSWORD,
    });
    const connection = watchConnection(nats.nc);
    // Records are durable once JetStream has them; the webhooks service stores them from there.
    const recorder = new AttemptRecorder(
      async (_attempts, _disable, json) => {
        await nats.js.publish(JOB_SUBJECTS.records, json);
      },
      {
        flushIntervalMs: config.RECORD_FLUSH_INTERVAL,
        batchSize: config.RECORD_BATCH_SIZE,
        concurrency: 4,
        logger,
        onBuffered: (n) => metrics.recordsBuffered.set(n),
        maxBatchBytes: () => recordBatchBytes(nats.nc.info?.max_payload),
        buffer: recordBuffer,
      },
    );
    const sessionRecorder = new SessionRecorder(nats.js, { logger, buffer: recordBuffer });
    await ensureDispatcherStreams(nats.jsm, {
      replicas: config.NATS_STREAM_REPLICAS,
      retrySchedule: config.DELIVERY_RETRY_SCHEDULE,
      ackWaitMs: config.JETSTREAM_ACK_WAIT,
      maxScheduled: config.DELIVERY_MAX_SCHEDULED,
      eventsWindow: config.DELIVERY_QUEUE + 1000,
      limits: storeLimitsOf(config),
      logger,
    });
    await DeliveryBacklog.ensureBucket(
      nats.jsm,
      config.DELIVERY_MAX_AGE,
      config.NATS_STREAM_REPLICAS,
      storeLimitsOf(config).kvMaxBytes,
    );
    backlog = new DeliveryBacklog(
      nats.js,
      nats.jsm,
      {
        maxCount: config.DELIVERY_BACKLOG_PER_ACCOUNT,
        maxBytes: config.DELIVERY_BACKLOG_BYTES_PER_ACCOUNT,
        maxAgeMs: config.DELIVERY_MAX_AGE,
      },
      { logger, onError: () => metrics.backlogLedgerErrors.inc() },
    );
    await ensureOrderingBucket(nats.jsm, config.NATS_STREAM_REPLICAS, storeLimitsOf(config).kvMaxBytes);
    const ordering = new Ordering({
      js: nats.js,
      jsm: nats.jsm,
      backlog,
      metrics,
      logger,
      limits: {
        maxHeldKeys: config.DELIVERY_ORDERING_MAX_HELD_KEYS,
        maxWaitingPerKey: config.DELIVERY_ORDERING_MAX_WAITING_PER_KEY,
      },
    });
    const orderingSweep = startOrderingSweep({
      jsm: nats.jsm,
      metrics,
      logger,
      memoryMs: config.DELIVERY_ORDERING_FAILURE_MEMORY,
    });
    await Throttle.ensureBucket(
      nats.jsm,
      config.DELIVERY_MAX_AGE,
      config.NATS_STREAM_REPLICAS,
      storeLimitsOf(config).kvMaxBytes,
    );
    // Held deliveries are counted for the statistics, sent with the records (once a second).
    const throttledCounts = new ThrottledCounts(
      async (json) => {
        await nats.js.publish(JOB_SUBJECTS.records, json);
      },
      {
        flushIntervalMs: 1000,
        maxEntries: THROTTLED_COUNTS_MAX,
        logger,
        onDropped: (n) => metrics.throttledCountsDropped.inc(n),
      },
    );
    const throttle = new Throttle(nats.js, nats.jsm, config.DELIVERY_MAX_AGE, {
      logger,
      onError: () => metrics.throttleErrors.inc(),
      onHeld: (subscriptionId) => {
        metrics.throttled.inc();
        throttledCounts.add(subscriptionId);
      },
    });
    const stopListening = lookups.listen(nats.nc);

    const inFlight = new InFlight(config.JETSTREAM_ACK_WAIT, logger, config.DELIVERY_QUEUE + 4096);
    const sessions = new SessionLoop({
      js: nats.js,
      registry: new SessionRegistry(nats.js, nats.jsm),
      lookups,
      sender,
      settings: { deadlineMs: config.SESSION_DEADLINE_MS, timeoutMs: config.SESSION_TIMEOUT_MS },
      recorder,
      sessionRecorder,
      inFlight,
      metrics,
      logger,
    });
    const worker = new DeliveryWorker({
      js: nats.js,
      lookups,
      sender,
      tokens,
      retry: retrySettings,
      recorder,
      inFlight,
      shares,
      metrics,
      sessions,
      backlog,
      backlogRecheckMs: config.DELIVERY_BACKLOG_RECHECK,
      ordering,
      throttle,
      logger,
    });
    const resends = new ResendWorker({
      lookups,
      sender,
      tokens,
      recorder,
      inFlight,
      metrics,
      logger,
      ordering,
      giveUpAfterMs: config.DELIVERY_GIVE_UP_AFTER,
    });
    const stopTests = listenForTests(nats.nc, {
      lookups,
      sender,
      tokens,
      recorder,
      metrics,
      logger,
      timeoutMs: config.DELIVERY_TIMEOUT_MS,
    });
    const js = nats.js;
    // Messages being looked up and admitted at once; admitted jobs wait in the host queues.
    const buffer = Math.max(config.DELIVERY_CONCURRENCY * 2, 64);
    // The jobs stream's consumers (durable, messages handled at once, handler).
    const jobConsumers: [string, number, (m: JsMsg) => Promise<void>][] = [
      [CONSUMERS.retry, buffer, (m) => worker.handleRetry(m)],
      [CONSUMERS.throttled, buffer, (m) => worker.handleRetry(m)],
      [CONSUMERS.parked, 16, (m) => worker.handleParked(m)],
      [CONSUMERS.resends, buffer, (m) => resends.handle(m)],
    ];
    const loops = [
      runConsumerLoop({
        js,
        stream: STREAMS.events.name,
        durable: CONSUMERS.events,
        logger,
        concurrency: buffer,
        handle: roomy((m) =>
          handleEvent(m, {
            lookups,
            worker,
            inFlight,
            metrics,
            logger,
            js,
            maxPayload: () => nats.nc.info?.max_payload ?? 1024 * 1024,
          }),
        ),
      }),
      ...jobConsumers.map(([durable, concurrency, handle]) =>
        runConsumerLoop({ js, stream: DELIVERIES_STREAM, durable, logger, concurrency, handle: roomy(handle) }),
      ),
    ];
    await Promise.all(loops.map((l) => l.started));
    const stopBacklogPoll = pollConsumerBacklog(nats.jsm, metrics, logger, (stream, bytes, maxBytes) => {
      if (stream === ORDERING_STREAM) ordering.bucket.set(bytes, maxBytes);
    });
    const stopPolling = () => Promise.all([stopBacklogPoll(), orderingSweep.stop()]).then(() => undefined);

    accepting = true;
    const run = {
      nats,
      inFlight,
      recorder,
      sessionRecorder,
      throttledCounts,
      loops,
      consuming: true,
      stopListening,
      stopTests,
      stopPolling,
    };
    const ops = await startOpsServer({
      port: config.OPS_PORT,
      host: config.HOST,
      logger,
      registry: metrics.registry,
      accepting: () => accepting,
      ready: async () => ({ nats: connection.connected && !nats.nc.isClosed(), consumers: run.consuming }),
    });
    return Object.assign(run, { ops });
  }

  return {
    logger,
    metrics,
    async start() {
      running = await start();
      logger.info({ opsPort: running.ops.port, consumers: Object.values(CONSUMERS) }, 'dispatcher started');
      return { opsPort: running.ops.port };
    },

    async stop() {
      accepting = false;
      const r = running;
      running = undefined;
      void r?.stopPolling(); // a round under way ends on its own (NATS requests time out)
      r?.stopListening();
      // Tests in progress finish their attempt and are answered; no new ones reach this replica.
      const testsDone = r?.stopTests();
      // Stop pulling; jobs in flight finish their attempt, record it and acknowledge. Messages
      // waiting for room in the record buffer are left to JetStream.
      recordBuffer.stop();
      const stopping = Promise.all((r?.loops ?? []).map((l) => l.stop()));
      // Jobs waiting for a host slot are deferred (a first attempt becomes a retry job, a retry is
      // handed back), not attempted: the process does not wait for long queues.
      limiter.close();
      await stopping;
      await testsDone;
      if (r) r.consuming = false;
      await r?.inFlight.drain();
      await Promise.all([r?.recorder.close(), r?.sessionRecorder.close(), r?.throttledCounts.close()]);
      await r?.nats.close();
      breakers.close();
      await http.close();
      apps.close();
      addresses.close();
      hooks.close();
      await r?.ops.close();
      logger.info('dispatcher stopped');
    },
  };
}

/** Follows the connection's status: false from a disconnect until the reconnect. */
function watchConnection(nc: NatsConnection): { readonly connected: boolean } {
  const state = { connected: true };
  (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') state.connected = false;
      else if (s.type === 'reconnect') state.connected = true;
    }
  })().catch(() => undefined);
  return state;
}
