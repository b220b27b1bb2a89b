import { z } from 'zod';
import { bool, cidrList, duration, grpcAddress, logLevel, natsServers, parseConfig, port, secretsKey, urlWithProtocol, idempotencyFields, storeLimitFields } from '@switchboard/platform';

const schema = z.object({
  /** gRPC port of the service. */
  GRPC_PORT: port(50052),
  /** HTTP port of /healthz, /readyz and /metrics. */
  OPS_PORT: port(8082),
  /** Interface to bind. */
  HOST: z.string().default('0.0.0.0'),
  /** Postgres; this service keeps its tables in the schema DB_SCHEMA of this database. */
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/switchboard'),
  DB_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier').default('webhooks'),
  /** Connections in the pool of this process. */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** NATS with JetStream: consumes applications.deleted, publishes webhooks.changed. */
  NATS_URL: natsServers('nats://127.0.0.1:4222'),
  /** Replicas of the JetStream streams this service creates. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  ...storeLimitFields,
  ...idempotencyFields,
  /** The applications service (gRPC host:port): checks that an application belongs to the caller. */
  APPLICATIONS_GRPC_URL: grpcAddress('127.0.0.1:50051'),
  /** Deadline of calls to the applications service. */
  APPLICATIONS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** Private ranges that target URLs may use anyway (docs/events.md#delivery); tests set 127.0.0.0/8,::1/128. */
  DELIVERY_ALLOWED_CIDRS: cidrList,
  /**
   * A subscription whose deliveries have all failed for this long (from its first failed attempt
   * since the last success to a failed attempt this much later) is disabled, and webhookDisabled
   * subscribers are told. "5d", "36h", ISO 8601 "P5D", or milliseconds; 0 turns the rule off.
   */
  DELIVERY_DISABLE_AFTER: duration('5d'),
  /** Batches of the dispatchers' attempt records (deliveries.records) stored at once. */
  RECORD_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** The {base_url} of the hrefs in webhookDisabled notifications: the gateway's PUBLIC_BASE_URL. */
  PUBLIC_BASE_URL: z
    .string()
    .default('http://localhost:8080')
    .refine((v) => /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(v), 'must be an absolute http(s) URL without query')
    .transform((v) => v.replace(/\/+$/, '')),
  /** Delivery records older than this are deleted (0 keeps them forever). */
  DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  /**
   * How long a test send (POST /v1/webhooks/:id/test) waits for a dispatcher's answer: above the
   * dispatchers' DELIVERY_TIMEOUT_MS (default 15 s), so that a slow target is answered as such.
   */
  TEST_REPLY_TIMEOUT_MS: z.coerce.number().int().min(200).max(300_000).default(20_000),
  /** Test sends per subscription per minute; more are answered 429 with Retry-After. */
  TEST_SENDS_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(5),
  /** 32-byte key (base64 or hex) sealing the subscriptions' signing secrets at rest (AES-256-GCM). Required. */
  SECRETS_KEY: secretsKey,
  /** Run database migrations at start (set false where a release Job runs them). */
  MIGRATE_ON_START: bool(true),
  LOG_LEVEL: logLevel,
});

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(schema, env);
}
