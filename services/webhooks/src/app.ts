// Composition root of the webhooks service: createApp(config) -> { start, stop }.
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm, migrate } from '@switchboard/orm';
import {
  connectNats,
  Counter,
  createLogger,
  createRegistry,
  ensureStreams,
  GrpcServer,
  startOpsServer,
  STREAMS,
  withTimeout,
  type ConsumerLoop,
  type Logger,
  type NatsHandle,
  type OpsServer,
} from '@switchboard/platform';
import { applicationsClient, healthProto, type ApplicationsClient } from '@switchboard/proto';
import { createApplicationDirectory } from './applications/directory';
import type { Config } from './config';
import type { Deps } from './context';
import { SCHEMA } from './db/schema';
import { pruneDeliveries } from './deliveries/prune-deliveries';
import { startApplicationsDeletedConsumer } from './events/applications-deleted';
import { createChangePublisher, type ChangePublisher } from './events/changes';
import { registerHandlers } from './grpc/handlers';

export { loadConfig, type Config } from './config';

export interface WebhooksApp {
  logger: Logger;
  orm: MikroORM;
  start(): Promise<{ grpcPort: number; opsPort: number }>;
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

export async function createApp(config: Config, logger: Logger = createLogger('webhooks', config.LOG_LEVEL)): Promise<WebhooksApp> {
  const registry = createRegistry('webhooks');
  const orm = await initOrm({ ...SCHEMA, databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, poolMax: config.DB_POOL_MAX, logger, secrets: config.SECRETS_KEY });
  const grpc = new GrpcServer({ service: 'webhooks', logger, registry });
  const pruned = new Counter({ name: 'webhooks_deliveries_pruned_total', help: 'Delivery records deleted after the retention period.', registers: [registry] });
  let nats: NatsHandle | undefined;
  let apps: ApplicationsClient | undefined;
  let changes: ChangePublisher | undefined;
  let consumer: ConsumerLoop | undefined;
  let ops: OpsServer | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let accepting = false;

  const prune = () => {
    pruneDeliveries(orm, config.DB_SCHEMA, config.DELIVERY_RETENTION_DAYS)
      .then((n) => {
        pruned.inc(n);
        if (n > 0) logger.info({ deleted: n }, 'old delivery records pruned');
      })
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'pruning delivery records failed; will retry'));
  };

  return {
    logger,
    orm,
    async start() {
      if (config.MIGRATE_ON_START) await migrate(orm, config.DB_SCHEMA, logger);
      nats = await connectNats(config.NATS_URL, logger, 'webhooks');
      await ensureStreams(nats.jsm, [STREAMS.internal], config.NATS_STREAM_REPLICAS);
      apps = applicationsClient(config.APPLICATIONS_GRPC_URL, { defaultTimeoutMs: config.APPLICATIONS_TIMEOUT_MS, metrics: { registry, prefix: 'webhooks' } });
      changes = createChangePublisher(nats.js, logger, registry);
      const deps: Deps = {
        orm,
        schema: config.DB_SCHEMA,
        applications: createApplicationDirectory(apps),
        changes,
        allowedCidrs: config.DELIVERY_ALLOWED_CIDRS,
        secrets: config.SECRETS_KEY,
      };
      consumer = await startApplicationsDeletedConsumer(deps, nats, logger, registry);
      registerHandlers(grpc, deps);
      grpc.addHealth(healthProto().Health.service);
      const grpcPort = await grpc.listen(config.HOST, config.GRPC_PORT);
      const n = nats;
      ops = await startOpsServer({
        port: config.OPS_PORT,
        host: config.HOST,
        logger,
        registry,
        accepting: () => accepting,
        ready: async () => {
          const [database, natsOk] = await Promise.all([
            withTimeout(orm.em.getConnection().execute('select 1'), 1500).then(
              () => true,
              () => false,
            ),
            n.nc.isClosed() ? Promise.resolve(false) : withTimeout(n.nc.flush(), 1500).then(() => true, () => false),
          ]);
          return { database, nats: natsOk };
        },
      });
      pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
      pruneTimer.unref();
      accepting = true;
      logger.info({ grpcPort, opsPort: ops.port }, 'webhooks service started');
      return { grpcPort, opsPort: ops.port };
    },
    async stop() {
      accepting = false;
      clearInterval(pruneTimer);
      await grpc.stop();
      await consumer?.stop();
      await changes?.drain();
      await ops?.close();
      apps?.close();
      await nats?.close();
      await orm.close(true);
    },
  };
}
