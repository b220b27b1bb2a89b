// Composition root of the applications service: createApp(config) -> { start, stop }.
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm, migrate } from '@switchboard/orm';
import {
  connectNats,
  createLogger,
  createRegistry,
  ensureStreams,
  GrpcServer,
  startOpsServer,
  STREAMS,
  type Logger,
  type NatsHandle,
  type OpsServer,
} from '@switchboard/platform';
import { healthProto } from '@switchboard/proto';
import { setScryptN } from './accounts/password';
import type { Config } from './config';
import type { Deps } from './context';
import { SCHEMA } from './db/schema';
import { registerHandlers } from './grpc/handlers';
import { startOutboxRelay, type OutboxRelay } from './outbox/relay';

export { loadConfig, type Config } from './config';

export interface ApplicationsApp {
  logger: Logger;
  orm: MikroORM;
  start(): Promise<{ grpcPort: number; opsPort: number }>;
  stop(): Promise<void>;
}

export async function createApp(config: Config, logger: Logger = createLogger('applications', config.LOG_LEVEL)): Promise<ApplicationsApp> {
  setScryptN(config.PASSWORD_SCRYPT_N);
  const registry = createRegistry('applications');
  const orm = await initOrm({ ...SCHEMA, databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, poolMax: config.DB_POOL_MAX, logger, secrets: config.SECRETS_KEY });
  let nats: NatsHandle | undefined;
  let relay: OutboxRelay | undefined;
  let ops: OpsServer | undefined;
  const grpc = new GrpcServer({ service: 'applications', logger, registry });
  let accepting = false;

  return {
    logger,
    orm,
    async start() {
      if (config.MIGRATE_ON_START) await migrate(orm, config.DB_SCHEMA, logger);
      nats = await connectNats(config.NATS_URL, logger, 'applications');
      await ensureStreams(nats.jsm, [STREAMS.internal], config.NATS_STREAM_REPLICAS);
      relay = startOutboxRelay(orm, nats.js, config.DB_SCHEMA, logger);
      const deps: Deps = { orm, allowedCidrs: config.DELIVERY_ALLOWED_CIDRS, sipDomain: config.SIP_DOMAIN, outbox: relay, secrets: config.SECRETS_KEY };
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
        ready: async () => ({
          database: await orm.isConnected().catch(() => false),
          nats: !n.nc.isClosed(),
        }),
      });
      accepting = true;
      logger.info({ grpcPort, opsPort: ops.port }, 'applications service started');
      return { grpcPort, opsPort: ops.port };
    },
    async stop() {
      accepting = false;
      await grpc.stop();
      await relay?.stop();
      await ops?.close();
      await nats?.close();
      await orm.close(true);
    },
  };
}
