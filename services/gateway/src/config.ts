import { z } from 'zod';
import { cidrList, grpcAddress, logLevel, parseConfig, port } from '@switchboard/platform';
import { BODY_LIMIT_DEFAULT_BYTES, SESSION_RATE_LIMIT_DEFAULT_PER_SECOND } from './limits';
import { RATE_LIMIT_TABLE_DEFAULT_BYTES } from './rate-limit';

const schema = z
  .object({
    /** HTTP port of the API (also /healthz). */
    PORT: port(8080),
    /**
     * Operations port: /healthz, /readyz, /metrics, never public. 0 (the default) takes a free port
     * and logs it, so test stacks never collide; deployments set 8084 (deploy/, Dockerfile, npm start).
     */
    OPS_PORT: port(0),
    HOST: z.string().default('0.0.0.0'),
    /** The {base_url} of every href; default http://localhost:$PORT. */
    PUBLIC_BASE_URL: z
      .string()
      .optional()
      .refine((v) => v === undefined || /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(v), 'must be an absolute http(s) URL without query'),
    APPLICATIONS_GRPC_URL: grpcAddress('127.0.0.1:50051'),
    WEBHOOKS_GRPC_URL: grpcAddress('127.0.0.1:50052'),
    /** Deadline of every gRPC call, in ms. */
    GRPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /**
     * gRPC calls (or batches of them) out at once per service address before further calls wait and
     * leave together as one batch (switchboard.rpc.v1.BatchService); 0 sends every call alone.
     */
    GRPC_BATCH_IN_FLIGHT: z.coerce.number().int().min(0).max(1024).default(8),
    /** Largest accepted request body, in bytes (413 above). */
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(BODY_LIMIT_DEFAULT_BYTES),
    /** How long a verified username/password pair is trusted without asking the applications service. */
    AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
    /** Consecutive failed logins of one username before it is locked out. */
    AUTH_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
    /** First lockout; doubles with every further failure, up to 15 minutes. */
    AUTH_LOCKOUT_MS: z.coerce.number().int().min(0).max(900_000).default(30_000),
    /**
     * Verifications (a full KDF on the applications service each) in flight at a time per replica,
     * and how many more may wait; beyond that a login that is not cached is answered 503 + Retry-After.
     */
    AUTH_VERIFY_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(2),
    AUTH_VERIFY_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
    /**
     * Failed logins per second per client address (0 = no limit), after a burst of
     * AUTH_ADDRESS_FAILURES_BURST; beyond it 429 + Retry-After before the password is checked.
     * Successful logins give their token back.
     */
    AUTH_ADDRESS_FAILURES_PER_SECOND: z.coerce.number().min(0).max(100_000).default(1),
    AUTH_ADDRESS_FAILURES_BURST: z.coerce.number().int().min(1).max(100_000).default(20),
    /** Memory the table of failed logins per username may take (least recently used dropped first). */
    AUTH_FAILURE_TABLE_BYTES: z.coerce.number().int().min(64 * 1024).max(1024 * 1024 * 1024).default(16 * 1024 * 1024),
    /**
     * Proxies (comma-separated CIDRs) whose X-Forwarded-For is believed when telling client addresses
     * apart; default none (the peer address is the client).
     */
    TRUSTED_PROXIES: cidrList,
    /** Sustained requests per second per account (0 = no limit); bursts up to twice that. */
    RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).max(1_000_000).default(500),
    /**
     * Session API: sessions launched per second per token, and signals per second per session id
     * (0 = no limit); bursts up to twice that, then 429 + Retry-After.
     */
    SESSION_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).max(1_000_000).default(SESSION_RATE_LIMIT_DEFAULT_PER_SECOND),
    /**
     * Memory each table of the gateway may take (every rate limiter's buckets, the verified-credentials
     * cache); past it the least recently used keys are dropped, never the whole table.
     */
    RATE_LIMIT_TABLE_BYTES: z.coerce.number().int().min(64 * 1024).max(1024 * 1024 * 1024).default(RATE_LIMIT_TABLE_DEFAULT_BYTES),
    LOG_LEVEL: logLevel,
  })
  .transform((c) => ({
    ...c,
    PUBLIC_BASE_URL: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
  }));

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(schema, env);
}
