import { z } from 'zod';
import {
  authLockoutField,
  authMaxFailuresField,
  bool,
  cidrList,
  grpcAddress,
  logLevel,
  natsServers,
  parseConfig,
  port,
} from '@switchboard/config';
import { natsAuthFields, streamReplicasField } from '@switchboard/messaging';
import { BODY_LIMIT_DEFAULT_BYTES, SESSION_RATE_LIMIT_DEFAULT_PER_SECOND } from './limits.ts';
import { RATE_LIMIT_TABLE_DEFAULT_BYTES } from './rate-limit.ts';
import { SHARED_LIMITS_DEFAULT_MAX_BYTES } from './shared-limits.ts';

export const schema = z
  .object({
    PORT: port(8080).describe('HTTP port of the API (also `/healthz`).'),
    OPS_PORT: port(0).describe(
      'Operations port: `/healthz`, `/readyz`, `/metrics`, never public. 0 takes a free port and logs it, so test stacks never collide; deployments set 8084 (deploy/, Dockerfile, `npm start`).',
    ),
    HOST: z.string().default('0.0.0.0').describe('Interface the HTTP servers listen on.'),
    PUBLIC_BASE_URL: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(v),
        'must be an absolute http(s) URL without query',
      )
      .describe('The `{base_url}` of every href; unset: `http://localhost:$PORT`.'),
    APPLICATIONS_GRPC_URL: grpcAddress('127.0.0.1:50051').describe('The applications service (gRPC host:port).'),
    WEBHOOKS_GRPC_URL: grpcAddress('127.0.0.1:50052').describe('The webhooks service (gRPC host:port).'),
    APPLICATIONS_RPC_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe(
        'The `GATEWAY_RPC_TOKEN` of the applications service, sent with every call to it (its account and credential RPCs need it); unset: none sent.',
      ),
    GRPC_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(60_000)
      .default(5000)
      .describe("Deadline of every gRPC call, in ms (a batch waits as long as its latest call's deadline)."),
    GRPC_BATCH_IN_FLIGHT: z.coerce
      .number()
      .int()
      .min(0)
      .max(1024)
      .default(8)
      .describe(
        'gRPC calls (or batches of them) out at once per service address before further calls wait and leave together as one batch (`switchboard.rpc.v1.BatchService`); 0 sends every call alone.',
      ),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(BODY_LIMIT_DEFAULT_BYTES)
      .describe('Largest accepted request body, in bytes (413 above).'),
    AUTH_CACHE_TTL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(30_000)
      .describe(
        'How long a verified username/password pair is trusted without asking the applications service, in ms.',
      ),
    ...authMaxFailuresField('Consecutive failed logins of one username before it is locked out.'),
    ...authLockoutField,
    AUTH_VERIFY_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(256)
      .default(2)
      .describe('Verifications (a full KDF on the applications service each) in flight at a time per replica.'),
    AUTH_VERIFY_QUEUE: z.coerce
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(16)
      .describe(
        'Verifications that may wait beyond `AUTH_VERIFY_CONCURRENCY`; beyond that a login that is not cached is answered 503 + `Retry-After`.',
      ),
    AUTH_ADDRESS_FAILURES_PER_SECOND: z.coerce
      .number()
      .min(0)
      .max(100_000)
      .default(1)
      .describe(
        'Failed logins per second per client address (0 = no limit), after a burst of `AUTH_ADDRESS_FAILURES_BURST`; beyond it 429 + `Retry-After` before the password is checked. Successful logins give their token back.',
      ),
    AUTH_ADDRESS_FAILURES_BURST: z.coerce
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(20)
      .describe('Burst of failed logins allowed per client address.'),
    AUTH_FAILURE_TABLE_BYTES: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(1024 * 1024 * 1024)
      .default(16 * 1024 * 1024)
      .describe('Memory the table of failed logins per username may take (least recently used dropped first).'),
    API_KEY_CACHE_TTL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(30_000)
      .describe(
        'How long a verified API key is remembered without asking the applications service, in ms (0: every request verifies its key); only while revocation notices reach the gateway over NATS, which make every replica forget a revoked key at once.',
      ),
    NATS_URL: natsServers('nats://127.0.0.1:4222').describe(
      'NATS, for the notices of revoked API keys and changed passwords (core subscriptions) and the shared limits (`SHARED_LIMITS`): one server, or the members of a cluster comma-separated. While it is unreachable the gateway keeps serving, remembers no verified key and counts every limit per replica.',
    ),
    ...natsAuthFields(
      "The gateway's NATS user (the servers' per-service permissions: it subscribes only to `credentials.>` and `accounts.>`, and writes only the bucket `SWITCHBOARD_LIMITS`); unset: anonymous.",
    ),
    TRUSTED_PROXIES: cidrList.describe(
      'Proxies (comma-separated CIDRs) whose `X-Forwarded-For` is believed when telling client addresses apart; default none (the peer address is the client).',
    ),
    RATE_LIMIT_PER_SECOND: z.coerce
      .number()
      .min(0)
      .max(1_000_000)
      .default(500)
      .describe('Sustained requests per second per account (0 = no limit); bursts up to twice that.'),
    SESSION_RATE_LIMIT_PER_SECOND: z.coerce
      .number()
      .min(0)
      .max(1_000_000)
      .default(SESSION_RATE_LIMIT_DEFAULT_PER_SECOND)
      .describe(
        'Session API: sessions launched per second per token, and signals per second per session id (0 = no limit); bursts up to twice that, then 429 + `Retry-After`.',
      ),
    SHARED_LIMITS: bool(true).describe(
      'Count the per-account request limit, the per-address budget of failed logins and the Session API limits for every gateway replica together, in the JetStream key-value bucket `SWITCHBOARD_LIMITS` (each replica leases small batches of tokens); `false`: each replica counts them alone. While NATS cannot be reached, each replica counts them alone (`gateway_shared_limit_fallbacks_total`).',
    ),
    SHARED_LIMITS_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(10)
      .max(5000)
      .default(250)
      .describe(
        'Deadline of each read and write of the shared limits, in ms; past it the request is counted by the replica alone and the shared limits are left alone for a second.',
      ),
    SHARED_LIMITS_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(1024 * 1024 * 1024)
      .default(SHARED_LIMITS_DEFAULT_MAX_BYTES)
      .describe(
        'Bytes the bucket `SWITCHBOARD_LIMITS` keeps (about 150 per key in use); full, it drops the keys written longest ago, which start again with a full burst.',
      ),
    ...streamReplicasField('Replicas of the bucket `SWITCHBOARD_LIMITS` (3 in a NATS cluster).'),
    RATE_LIMIT_TABLE_BYTES: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(1024 * 1024 * 1024)
      .default(RATE_LIMIT_TABLE_DEFAULT_BYTES)
      .describe(
        "Memory each table of the gateway may take (every rate limiter's buckets, the verified-credentials cache), in bytes; past it the least recently used keys are dropped, never the whole table.",
      ),
    CONSOLE_DIR: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Folder of the built console (`npm run build`'s `console/dist`), served under `/console/`; unset: the repository's `console/dist` beside the gateway (in the image, `/app/console/dist`).",
      ),
    LOG_LEVEL: logLevel.describe('pino log level.'),
  })
  .transform((c) => ({
    ...c,
    PUBLIC_BASE_URL: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
  }));

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(schema, env);
}
