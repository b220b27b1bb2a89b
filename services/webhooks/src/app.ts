// Composition root of the webhooks service: createApp(config) -> { start, stop }.
import { createDataService, type DataServiceApp } from '@switchboard/store-service';
import { pruneAudit, startOutboxRelay, startPeriodicJob, type OutboxRelay } from '@switchboard/db';
import { Counter, createLogger, withTimeout, type BackgroundLoop, type Logger } from '@switchboard/observability';
import { ensureStreams, type ConsumerLoop } from '@switchboard/messaging';
import { STREAMS, ALERT_CODES } from '@switchboard/events';
import { applicationsClient, batchProto, healthProto, type ApplicationsClient } from '@switchboard/proto';
import { createApplicationDirectory, followDeletions } from './applications/directory.ts';
import { startKeepingAlerts } from './alerts/keep-alerts.ts';
import type { Config } from './config.ts';
import type { Deps } from './context.ts';
import { SCHEMA } from './db/schema.ts';
import { dropExpiredDeliveries, ensureDeliveryPartitions } from './deliveries/partitions.ts';
import { pruneDeliveries } from './deliveries/repository.ts';
import { startRecordsConsumer } from './deliveries/records-consumer.ts';
import { startSweeper, type Sweeper } from './deliveries/sweep-deliveries.ts';
import { accountsDeleted } from './events/accounts-deleted.ts';
import { applicationsDeleted } from './events/applications-deleted.ts';
import { startDeletionConsumer } from './events/deletion-consumer.ts';
import { createChangePublisher, type ChangePublisher } from './events/changes.ts';
import { registerHandlers } from './grpc/handlers.ts';
import { startKeepingSessions } from './sessions/keep-sessions.ts';
import { startSessionConsumers, type SessionConsumers } from './sessions/record-consumers.ts';
import { createDispatcherLink } from './tools/dispatcher-link.ts';
import { startResendRelay, type ResendRelay } from './tools/resend-relay.ts';
import { evaluateUsageTriggersOnce } from './triggers/evaluate-usage-triggers.ts';
import { pruneUsage, usageCutoff } from './usage/repository.ts';

export { loadConfig, type Config } from './config.ts';

export type WebhooksApp = DataServiceApp;

export async function createApp(
  config: Config,
  logger: Logger = createLogger('webhooks', config.LOG_LEVEL),
): Promise<WebhooksApp> {
  const service = await createDataService('webhooks', SCHEMA, config, logger);
  const { registry, orm, idempotency, grpc } = service;
  // The service's own counters, all in its registry.
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const pruned = counter(
    'webhooks_delivery_partitions_dropped_total',
    'Daily partitions of delivery records and kept bodies dropped after the retention period.',
  );
  const swept = counter(
    'webhooks_deliveries_swept_total',
    'Delivery records of deleted subscriptions and applications deleted in the background.',
  );
  const alertsRaised = counter(
    'webhooks_alerts_total',
    'Alerts raised, by code (session records, delivery records, subscriptions disabled, launches refused; those folded into an earlier alert of their minute included).',
    ['code'],
  );
  for (const code of ALERT_CODES) alertsRaised.inc({ code }, 0);
  const sessionPartitionsDropped = counter(
    'webhooks_session_partitions_dropped_total',
    'Daily partitions of session records dropped after SESSION_RETENTION_DAYS.',
  );
  const usageTriggersFired = counter(
    'webhooks_usage_triggers_fired_total',
    'Usage triggers that reached their threshold in a period and fired.',
  );
  const usagePasses = counter(
    'webhooks_usage_trigger_passes_total',
    'Passes of the usage triggers run by this replica (one replica at a time runs a pass).',
  );
  let apps: ApplicationsClient | undefined;
  let changes: ChangePublisher | undefined;
  let consumers: ConsumerLoop[] = [];
  let outbox: OutboxRelay | undefined;
  let sweeper: Sweeper | undefined;
  let keeper: BackgroundLoop | undefined;
  let alertKeeper: BackgroundLoop | undefined;
  let sessionConsumers: SessionConsumers | undefined;
  let pruning: BackgroundLoop | undefined;
  let usageTriggers: BackgroundLoop | undefined;
  let resendRelay: ResendRelay | undefined;
  let stopFollowing: (() => void) | undefined;

  // At start and every PRUNE_INTERVAL_MS, one replica at a time: the days ahead get their
  // partitions, whole days past the retention period are dropped, then what goes with their
  // records, old audit entries, idempotency keys and tombstones.
  const prune = async () => {
    await ensureDeliveryPartitions(orm, config.DB_SCHEMA, config.RETENTION_DAY_MS);
    const dropped = await dropExpiredDeliveries(
      orm,
      config.DB_SCHEMA,
      config.DELIVERY_RETENTION_DAYS,
      config.RETENTION_DAY_MS,
    );
    pruned.inc(dropped.length);
    if (dropped.length > 0) logger.info({ dropped }, 'old delivery records dropped');
    await pruneDeliveries(
      orm.em,
      config.DB_SCHEMA,
      config.DELIVERY_RETENTION_DAYS,
      config.TOMBSTONE_RETENTION_MS,
      config.RETENTION_DAY_MS,
    );
    await pruneAudit(orm.em, config.AUDIT_RETENTION_DAYS, config.RETENTION_DAY_MS);
    await idempotency.prune();
    await pruneUsage(orm.em, config.DB_SCHEMA, usageCutoff(config.USAGE_RETENTION_DAYS));
  };

  return {
    logger,
    orm,
    async start() {
      const nats = await service.connect();
      // Today's and the coming days' partitions exist before any record is stored (after migrations).
      await ensureDeliveryPartitions(orm, config.DB_SCHEMA, config.RETENTION_DAY_MS);
      apps = applicationsClient(config.APPLICATIONS_GRPC_URL, {
        defaultTimeoutMs: config.APPLICATIONS_TIMEOUT_MS,
        metrics: { registry, prefix: 'webhooks' },
      });
      changes = createChangePublisher(nats.js, logger, registry);
      resendRelay = startResendRelay(orm, config.DB_SCHEMA, nats.js, logger, config.RESEND_IN_FLIGHT_PER_ACCOUNT);
      // webhooks.disabled goes onto the events stream, which the dispatcher fans out.
      // The core stream holds sessions.signal, which the session inspector shows.
      await ensureStreams(
        nats.jsm,
        [STREAMS.events, STREAMS.core],
        config.NATS_STREAM_REPLICAS,
        service.storeLimits.streamMaxBytes,
      );
      outbox = startOutboxRelay(orm, nats.js, config.DB_SCHEMA, logger);
      sweeper = startSweeper(orm, config.DB_SCHEMA, logger, (n) => swept.inc(n));
      const deps: Deps = {
        orm,
        schema: config.DB_SCHEMA,
        dayMs: config.RETENTION_DAY_MS,
        applications: createApplicationDirectory(apps),
        changes,
        sweeper,
        allowedCidrs: config.DELIVERY_ALLOWED_CIDRS,
        secrets: config.SECRETS_KEY,
        dispatchers: createDispatcherLink(nats.nc, config.TEST_REPLY_TIMEOUT_MS, resendRelay.kick),
        testsPerMinute: config.TEST_SENDS_PER_MINUTE,
        toolLimits: {
          recoveryMaxDeliveries: config.RECOVERY_MAX_DELIVERIES,
          resendsPerHour: config.RESENDS_PER_HOUR,
          recoveriesPerHour: config.RECOVERIES_PER_HOUR,
        },
        disableAfterMs: config.DELIVERY_DISABLE_AFTER,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        outbox,
        alertsRaised: (code, n = 1) => alertsRaised.inc({ code }, n),
      };
      consumers = [
        await startDeletionConsumer(applicationsDeleted(deps), nats, logger, registry),
        await startDeletionConsumer(accountsDeleted(deps), nats, logger, registry),
        // The dispatchers' attempt records, stored from JetStream.
        startRecordsConsumer(deps, nats, logger, registry, { concurrency: config.RECORD_CONCURRENCY }),
      ];
      // Session records and signals, stored from JetStream; their partitions and retention.
      keeper = startKeepingSessions(deps, {
        retentionDays: config.SESSION_RETENTION_DAYS,
        dayMs: config.RETENTION_DAY_MS,
        intervalMs: config.PRUNE_INTERVAL_MS,
        logger,
        dropped: (n) => sessionPartitionsDropped.inc(n),
      });
      alertKeeper = startKeepingAlerts(deps, {
        retentionDays: config.ALERT_RETENTION_DAYS,
        dayMs: config.RETENTION_DAY_MS,
        intervalMs: config.PRUNE_INTERVAL_MS,
        logger,
      });
      sessionConsumers = await startSessionConsumers(deps, nats, logger, registry);
      stopFollowing = followDeletions(nats.nc, deps.applications);
      // Answer signing secrets and custom headers: the dispatcher's alone when INTERNAL_RPC_TOKEN is set.
      grpc.requireToken(['MatchSubscriptions', 'GetDeliveryTarget'], config.INTERNAL_RPC_TOKEN);
      registerHandlers(grpc, deps);
      grpc.addHealth(healthProto().Health.service);
      grpc.addBatch(batchProto().BatchService.service);
      pruning = startPeriodicJob(orm, prune, {
        name: 'pruning delivery records, audit entries, idempotency keys and tombstones',
        schema: config.DB_SCHEMA,
        intervalMs: config.PRUNE_INTERVAL_MS,
        logger,
      });
      // Usage triggers against the usage counts, one replica at a time.
      usageTriggers = startPeriodicJob(
        orm,
        async () => {
          const fired = await evaluateUsageTriggersOnce(deps);
          usageTriggersFired.inc(fired);
        },
        {
          name: 'evaluating usage triggers',
          schema: config.DB_SCHEMA,
          intervalMs: config.USAGE_TRIGGER_INTERVAL_MS,
          logger,
          ran: (ran) => {
            if (ran) usagePasses.inc();
          },
        },
      );
      return service.serve(async (n) => {
        const [database, natsOk] = await Promise.all([
          withTimeout(orm.isConnected(), 1500).then(
            (connected) => connected,
            () => false,
          ),
          n.nc.isClosed()
            ? Promise.resolve(false)
            : withTimeout(n.nc.flush(), 1500).then(
                () => true,
                () => false,
              ),
        ]);
        return { database, nats: natsOk };
      });
    },
    async stop() {
      await service.stop(async () => {
        await pruning?.stop();
        await usageTriggers?.stop();
        stopFollowing?.();
        await resendRelay?.stop();
        await Promise.all([...consumers.map((c) => c.stop()), sessionConsumers?.stop()]);
        await keeper?.stop();
        await alertKeeper?.stop();
        await outbox?.stop();
        await sweeper?.stop();
        await changes?.drain();
        apps?.close();
      });
    },
  };
}
