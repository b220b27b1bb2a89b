import { z } from 'zod';
import { bool, cidrList, logLevel, natsServers, parseConfig, port, secretsKey, urlWithProtocol, idempotencyFields, storeLimitFields } from '@switchboard/platform';

const schema = z.object({
  /** gRPC port of the service. */
  GRPC_PORT: port(50051),
  /** HTTP port of /healthz, /readyz and /metrics. */
  OPS_PORT: port(8081),
  /** Interface to bind. */
  HOST: z.string().default('0.0.0.0'),
  /** Postgres; this service keeps its tables in the schema DB_SCHEMA of this database. */
  DATABASE_URL: urlWithProtocol(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/switchboard'),
  DB_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier').default('applications'),
  /** Connections in the pool of this process. */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** NATS with JetStream, for the events this service publishes. */
  NATS_URL: natsServers('nats://127.0.0.1:4222'),
  /** Replicas of the JetStream streams this service creates. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  ...storeLimitFields,
  ...idempotencyFields,
  /** Private ranges application URLs may point at anyway (literal addresses elsewhere in them are refused). */
  DELIVERY_ALLOWED_CIDRS: cidrList,
  /** Domain of the SIP addresses this service hands out (sip:<random>@SIP_DOMAIN): a DNS name, stored lower-case. */
  SIP_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a DNS name such as sip.example.com')
    .default('sip.switchboard.local'),
  /** 32-byte key (base64 or hex) sealing the applications' session secrets at rest (AES-256-GCM). Required. */
  SECRETS_KEY: secretsKey,
  /**
   * scrypt cost N of new password hashes: a power of two from 2^10 to 2^20. The default, 2^17 (with
   * r=8, p=1: 128 MiB a hash), is OWASP's minimum; lower it only in tests.
   */
  PASSWORD_SCRYPT_N: z.coerce
    .number()
    .int()
    .min(2 ** 10)
    .max(2 ** 20)
    .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
    .default(2 ** 17),
  /**
   * Password hashes computed at a time, each on a thread of its own (README, Authentication).
   * Default: one less than the cores, at least 1, so a flood of logins never takes every core.
   */
  PASSWORD_KDF_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * Nice value of those threads on Linux (0-19; 0: normal priority). Above 0 the KDF takes only CPU
   * nothing else wants; on a host that is often saturated that starves logins.
   */
  PASSWORD_KDF_NICE: z.coerce.number().int().min(0).max(19).default(0),
  /**
   * Sessions one account may launch per second through the Session API, whatever its tokens and
   * whichever gateway replica (counted in Postgres; 0 = no limit), after a burst of
   * SESSION_LAUNCH_BURST_PER_ACCOUNT; beyond it 429 + Retry-After.
   */
  SESSION_LAUNCH_RATE_PER_ACCOUNT: z.coerce.number().min(0).max(100_000).default(20),
  SESSION_LAUNCH_BURST_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(40),
  /** Session tokens one application may hold (409 limit_exceeded beyond). */
  APPLICATION_TOKENS_MAX: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Run database migrations at start (set false where a release Job runs them). */
  MIGRATE_ON_START: bool(true),
  LOG_LEVEL: logLevel,
});

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(schema, env);
}

/** The account command's configuration: SECRETS_KEY is optional there (only migrations that seal rows need it). */
export function loadCommandConfig(env: Record<string, string | undefined> = process.env) {
  return parseConfig(schema.extend({ SECRETS_KEY: secretsKey.optional() }), env);
}
