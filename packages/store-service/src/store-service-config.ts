// The configuration the gRPC services that own a Postgres schema (applications, webhooks) have in common:
// their ports, their database and schema, NATS and its streams, the stores shared through this package
// (idempotency keys, audit log), migrations at start and the log level. Each service spreads these fields
// into its own zod schema, then adds its own keys.
import { z } from 'zod';
import { auditFields, idempotencyFields } from '@switchboard/db';
import { bool, logLevel, natsServers, port, urlWithProtocol, retentionDayField } from '@switchboard/config';
import { natsAuthFields, storeLimitFields, streamReplicasField } from '@switchboard/messaging';

/** What differs between those services in the fields they share. */
export interface StoreServiceFieldOptions {
  /** Default of GRPC_PORT. */
  grpcPort: number;
  /** Default of OPS_PORT. */
  opsPort: number;
  /** Default of DB_SCHEMA: the service's own schema. */
  dbSchema: string;
  /** Description of INTERNAL_RPC_TOKEN: the RPCs the dispatcher must send it for. */
  internalRpcToken: string;
  /** Description of NATS_URL: what the service consumes and publishes there. */
  natsUrl: string;
}

/** The config fields of a gRPC service that owns a Postgres schema, to spread into its zod schema. */
export const storeServiceFields = (o: StoreServiceFieldOptions) => ({
  GRPC_PORT: port(o.grpcPort).describe('gRPC port of the service (serves `grpc.health.v1` too).'),
  INTERNAL_RPC_TOKEN: z.string().min(16, 'must be at least 16 characters').optional().describe(o.internalRpcToken),
  OPS_PORT: port(o.opsPort).describe('HTTP port of `/healthz`, `/readyz` and `/metrics`.'),
  HOST: z.string().default('0.0.0.0').describe('Interface the gRPC and HTTP servers listen on.'),
  DATABASE_URL: urlWithProtocol(
    ['postgres:', 'postgresql:'],
    'postgres://postgres@127.0.0.1:5432/switchboard',
  ).describe(
    'Postgres; this service keeps its tables in the schema `DB_SCHEMA` of this database, which is created if missing.',
  ),
  DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
    .default(o.dbSchema)
    .describe("The service's own schema (a lower-case SQL identifier)."),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10).describe('Connections in the pool of this process.'),
  NATS_URL: natsServers('nats://127.0.0.1:4222').describe(o.natsUrl),
  ...natsAuthFields(),
  ...streamReplicasField('Replicas of the JetStream streams this service creates (3 in a NATS cluster).'),
  ...storeLimitFields,
  ...idempotencyFields,
  ...auditFields,
  ...retentionDayField,
  MIGRATE_ON_START: bool(true).describe(
    'Run database migrations at start (set `false` where a release Job runs them).',
  ),
  LOG_LEVEL: logLevel.describe('pino log level.'),
});
