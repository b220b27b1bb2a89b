// The life cycle shared by the gRPC services that own a Postgres schema (applications, webhooks):
// what they build up front (metrics registry, ORM, idempotency store, gRPC server), the first and
// last steps of start() (migrations, NATS, gRPC and ops listeners) and of stop(). Each service's
// app.ts keeps its own wiring between those steps.
import type { MikroORM } from '@mikro-orm/postgresql';
import { connectNats, ensureStreams, storeLimitsOf, type NatsHandle } from '@switchboard/messaging';
import { STREAMS } from '@switchboard/events';
import { createRegistry, startOpsServer, type Logger, type OpsServer } from '@switchboard/observability';
import { GrpcServer } from '@switchboard/rpc';
import {
  IdempotencyStore,
  initOrm,
  migrate,
  type DatabaseConfig,
  type SchemaDefinition,
  poolOf,
} from '@switchboard/db';

/** A schema-owning service as its main.ts and the tests drive it. */
export interface DataServiceApp {
  logger: Logger;
  orm: MikroORM;
  start(): Promise<{ grpcPort: number; opsPort: number }>;
  stop(): Promise<void>;
}

/** The settings of such a service that the shared steps read. */
export interface DataServiceConfig extends DatabaseConfig {
  DB_POOL_MAX: number;
  MIGRATE_ON_START: boolean;
  NATS_URL: string;
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  NATS_STREAM_REPLICAS: number;
  HOST: string;
  GRPC_PORT: number;
  OPS_PORT: number;
  NATS_STREAM_MAX_BYTES: number;
  NATS_KV_MAX_BYTES: number;
  IDEMPOTENCY_KEYS_PER_ACCOUNT: number;
  RETENTION_DAY_MS: number;
}

export type DataServiceCore = Awaited<ReturnType<typeof createDataService>>;

/** Builds the parts every schema-owning service has and returns them with its shared start and stop steps. */
export async function createDataService(
  name: string,
  definition: SchemaDefinition,
  config: DataServiceConfig,
  logger: Logger,
) {
  const registry = createRegistry(name);
  const orm = await initOrm({
    ...definition,
    databaseUrl: config.DATABASE_URL,
    schema: config.DB_SCHEMA,
    poolMax: config.DB_POOL_MAX,
    logger,
    secrets: config.SECRETS_KEY,
  });
  // Stored answers may carry a signing secret or a token: sealed with the service's SECRETS_KEY.
  const idempotency = new IdempotencyStore(poolOf(orm.em), config.DB_SCHEMA, {
    box: config.SECRETS_KEY,
    maxKeysPerAccount: config.IDEMPOTENCY_KEYS_PER_ACCOUNT,
    retentionDayMs: config.RETENTION_DAY_MS,
  });
  const grpc = new GrpcServer({ service: name, logger, registry, idempotency });
  let nats: NatsHandle | undefined;
  let ops: OpsServer | undefined;
  let accepting = false;

  return {
    registry,
    orm,
    idempotency,
    grpc,
    /** The size limits of the streams and buckets this service creates. */
    storeLimits: storeLimitsOf(config),
    /** First steps of start(): migrations (when MIGRATE_ON_START) and NATS with the internal stream. */
    async connect(): Promise<NatsHandle> {
      if (config.MIGRATE_ON_START) await migrate(orm, config.DB_SCHEMA, logger);
      nats = await connectNats(config.NATS_URL, logger, name, {
        user: config.NATS_USER,
        password: config.NATS_PASSWORD,
      });
      await ensureStreams(
        nats.jsm,
        [STREAMS.internal],
        config.NATS_STREAM_REPLICAS,
        storeLimitsOf(config).streamMaxBytes,
      );
      return nats;
    },
    /** Last steps of start(), once the handlers are registered: gRPC and ops listeners, then accepting traffic. */
    async serve(
      ready: (nats: NatsHandle) => Promise<Record<string, boolean>>,
    ): Promise<{ grpcPort: number; opsPort: number }> {
      const n = nats;
      if (!n) throw new Error('connect() before serve()');
      const grpcPort = await grpc.listen(config.HOST, config.GRPC_PORT);
      ops = await startOpsServer({
        port: config.OPS_PORT,
        host: config.HOST,
        logger,
        registry,
        accepting: () => accepting,
        ready: () => ready(n),
      });
      accepting = true;
      logger.info({ grpcPort, opsPort: ops.port }, `${name} service started`);
      return { grpcPort, opsPort: ops.port };
    },
    /** stop(): refuses new traffic, stops gRPC, runs the service's own draining, then closes ops, NATS and the ORM. */
    async stop(drain: () => Promise<void>): Promise<void> {
      accepting = false;
      await grpc.stop();
      await drain();
      await ops?.close();
      await nats?.close();
      await orm.close(true);
    },
  };
}
