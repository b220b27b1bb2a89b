// Composition root of the dispatcher: NATS streams and consumers, gRPC clients, the delivery
// pipeline and the ops server, built from one Config. createApp(config).start() runs it;
// stop() drains it (stop pulling, finish attempts in flight, flush records, drain NATS).
import { connectNats, createLogger, runConsumerLoop, startOpsServer, type ConsumerLoop, type Logger, type NatsHandle, type OpsServer } from '@switchboard/platform';
import { applicationsClient, webhooksClient } from '@switchboard/proto';
import type { Config } from './config';
import { BreakerMap } from './delivery/breakers';
import { DeliveryWorker } from './delivery/deliver-job';
import { HostLimiter } from './delivery/host-limiter';
import { HttpSender } from './delivery/http-sender';
import { generateSecret, secretKey } from './delivery/signing';
import { handleEvent } from './events/handle-event';
import { CONSUMERS, DELIVERIES_STREAM, ensureDispatcherStreams, JOB_SUBJECTS } from './jobs';
import { encodeBatch, forwardRecords } from './recording/records-forwarder';
import { Lookups } from './lookup/lookups';
import { createMetrics, type DispatcherMetrics } from './metrics';
import { AttemptRecorder } from './recording/attempt-recorder';
import { STREAMS } from '@switchboard/platform';

export type { Config } from './config';
export { loadConfig } from './config';

export interface DispatcherApp {
  readonly logger: Logger;
  readonly metrics: DispatcherMetrics;
  start(): Promise<{ opsPort: number }>;
  stop(): Promise<void>;
}

export interface AppOptions {
  logger?: Logger;
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
    },
    Date.now,
    (host, state) => logger.info({ host, state }, 'circuit breaker state changed'),
  );
  const metrics = createMetrics(() => breakers.counts());

  let nats: NatsHandle | undefined;
  let ops: OpsServer | undefined;
  let loops: ConsumerLoop[] = [];
  let stopListening: (() => void) | undefined;
  let pendingTimer: NodeJS.Timeout | undefined;
  let connected = false;
  let accepting = false;
  let recorder: AttemptRecorder | undefined;
  let limiter: HostLimiter | undefined;
  let sender: HttpSender | undefined;
  let worker: DeliveryWorker | undefined;
  let apps: ReturnType<typeof applicationsClient> | undefined;
  let hooks: ReturnType<typeof webhooksClient> | undefined;

  return {
    logger,
    metrics,
    async start() {
      let sessionSecrets = (config.SESSION_SIGNING_SECRET ?? '').split(/\s+/).filter(Boolean);
      if (sessionSecrets.length === 0) {
        sessionSecrets = [generateSecret()];
        logger.warn('SESSION_SIGNING_SECRET is not set: session POSTs are signed with a random per-process secret that receivers cannot verify');
      }
      const clientOpts = { defaultTimeoutMs: 3000, metrics: { registry: metrics.registry, prefix: 'dispatcher' } };
      apps = applicationsClient(config.APPLICATIONS_GRPC_URL, clientOpts);
      hooks = webhooksClient(config.WEBHOOKS_GRPC_URL, clientOpts);
      const lookups = new Lookups(apps, hooks, config.LOOKUP_CACHE_TTL, logger);
      sender = new HttpSender({ timeoutMs: config.DELIVERY_TIMEOUT_MS, allowedCidrs: config.DELIVERY_ALLOWED_CIDRS, logger });
      limiter = new HostLimiter({
        global: config.DELIVERY_CONCURRENCY,
        perHost: config.DELIVERY_HOST_CONCURRENCY,
        maxWaitMs: Math.min(1000, config.DELIVERY_TIMEOUT_MS),
        maxQueuePerHost: config.DELIVERY_HOST_CONCURRENCY * 2,
        congestedAfterMs: Math.min(1000, config.DELIVERY_TIMEOUT_MS / 2),
      });
      const webhooks = hooks;
      nats = await connectNats(config.NATS_URL, logger, 'dispatcher');
      const natsJs = nats.js;
      // Records are durable once JetStream has them; the records consumer stores them.
      recorder = new AttemptRecorder(
        async (attempts, disable) => {
          await natsJs.publish(JOB_SUBJECTS.records, encodeBatch({ attempts, disable }));
        },
        { flushIntervalMs: config.RECORD_FLUSH_INTERVAL, batchSize: config.RECORD_BATCH_SIZE, concurrency: 4, logger, onBuffered: (n) => metrics.recordsBuffered.set(n) },
      );

      connected = true;
      (async () => {
        for await (const s of nats!.nc.status()) {
          if (s.type === 'disconnect') connected = false;
          else if (s.type === 'reconnect') connected = true;
        }
      })().catch(() => undefined);
      await ensureDispatcherStreams(nats.jsm, {
        replicas: config.NATS_STREAM_REPLICAS,
        retrySchedule: config.DELIVERY_RETRY_SCHEDULE,
        ackWaitMs: config.JETSTREAM_ACK_WAIT,
        maxScheduled: config.DELIVERY_MAX_SCHEDULED,
      });
      stopListening = lookups.listen(nats.nc);

      worker = new DeliveryWorker({
        js: nats.js,
        lookups,
        sender,
        breakers,
        limiter,
        recorder,
        metrics,
        policy: { schedule: config.DELIVERY_RETRY_SCHEDULE, jitter: config.DELIVERY_RETRY_JITTER, retryAfterMaxMs: config.DELIVERY_RETRY_AFTER_MAX },
        sessionKeys: sessionSecrets.map(secretKey),
        ackWaitMs: config.JETSTREAM_ACK_WAIT,
        giveUpAfterMs: config.DELIVERY_GIVE_UP_AFTER,
        logger,
      });
      const js = nats.js;
      const w = worker;
      // Jobs handled at once: attempts in flight or waiting (briefly) for a host slot.
      const buffer = Math.max(config.DELIVERY_CONCURRENCY * 2, 64);
      loops = [
        runConsumerLoop({ js, stream: STREAMS.events.name, durable: CONSUMERS.events, logger, concurrency: buffer, handle: (m) => handleEvent(m, { lookups, worker: w, metrics, logger }) }),
        runConsumerLoop({ js, stream: DELIVERIES_STREAM, durable: CONSUMERS.retry, logger, concurrency: buffer, handle: (m) => w.handleRetry(m) }),
        runConsumerLoop({
          js,
          stream: DELIVERIES_STREAM,
          durable: CONSUMERS.records,
          logger,
          concurrency: config.RECORD_CONCURRENCY,
          handle: (m) =>
            forwardRecords(m, {
              store: async (attempts, disable) => {
                await webhooks.recordAttempts({ attempts, disable }, { timeoutMs: 10_000 });
              },
              metrics,
              logger,
            }),
        }),
      ];
      await Promise.all(loops.map((l) => l.started));

      const jsm = nats.jsm;
      const pollPending = async () => {
        for (const [stream, durable] of [
          [STREAMS.events.name, CONSUMERS.events],
          [DELIVERIES_STREAM, CONSUMERS.retry],
          [DELIVERIES_STREAM, CONSUMERS.records],
        ] as const) {
          try {
            const info = await jsm.consumers.info(stream, durable);
            // A scheduled retry is an unacknowledged message of the retry consumer until it is due:
            // that is waiting by design, not backlog, so it is counted apart.
            if (durable === CONSUMERS.retry) {
              metrics.consumerPending.set({ consumer: durable }, info.num_pending);
              metrics.retriesWaiting.set(info.num_ack_pending);
            } else metrics.consumerPending.set({ consumer: durable }, info.num_pending + info.num_ack_pending);
          } catch {
            // NATS away: keep the last value
          }
        }
      };
      void pollPending();
      pendingTimer = setInterval(() => void pollPending(), 5000);
      pendingTimer.unref();

      accepting = true;
      ops = await startOpsServer({
        port: config.OPS_PORT,
        host: config.HOST,
        logger,
        registry: metrics.registry,
        accepting: () => accepting,
        ready: async () => ({ nats: connected && !nats!.nc.isClosed(), consumers: loops.length === 3 }),
      });
      logger.info({ opsPort: ops.port, consumers: Object.values(CONSUMERS) }, 'dispatcher started');
      return { opsPort: ops.port };
    },

    async stop() {
      accepting = false;
      clearInterval(pendingTimer);
      stopListening?.();
      // Stop pulling; jobs in flight finish their attempt, record it and acknowledge.
      await Promise.all(loops.map((l) => l.stop()));
      loops = [];
      await worker?.drain();
      limiter?.close();
      await recorder?.close();
      await nats?.close();
      nats = undefined;
      breakers.close();
      await sender?.close();
      apps?.close();
      hooks?.close();
      await ops?.close();
      ops = undefined;
      logger.info('dispatcher stopped');
    },
  };
}
