import { z } from 'zod';
import { authLockoutField, authMaxFailuresField, cidrList, parseConfig, pruneIntervalField } from '@switchboard/config';
import { secretsKey } from '@switchboard/security';
import { storeServiceFields } from '@switchboard/store-service';

export const schema = z.object({
  ...storeServiceFields({
    grpcPort: 50051,
    opsPort: 8081,
    dbSchema: 'applications',
    internalRpcToken:
      'Bearer token the dispatcher must send for `LookupApplication` (it answers signing secrets); unset: served to every caller.',
    natsUrl:
      'NATS with JetStream, for the events this service publishes: one server, or the members of a cluster comma-separated (each `nats:` or `tls:`); the client tries them all at start and after losing its server.',
  }),
  GATEWAY_RPC_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe(
      "Bearer token the gateway must send for every account and credential RPC (accounts, passwords, API keys, browser sessions, the audit log, applications' signing secrets); other callers (the dispatcher, the webhooks service) are refused them. Unset: served to every caller. Must differ from `INTERNAL_RPC_TOKEN`.",
    ),
  DELIVERY_ALLOWED_CIDRS: cidrList.describe(
    'Private ranges (comma-separated CIDRs) application URLs may point at anyway (literal addresses elsewhere in them are refused); tests set `127.0.0.0/8,::1/128`.',
  ),
  SIP_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
      'must be a DNS name such as sip.example.com',
    )
    .default('sip.switchboard.local')
    .describe(
      'Domain of the SIP addresses this service hands out (`sip:<random>@SIP_DOMAIN`): a DNS name, stored lower-case.',
    ),
  SECRETS_KEY: secretsKey.describe(
    "32-byte key, base64 (`openssl rand -base64 32`) or hex, sealing the applications' session secrets at rest (AES-256-GCM). Required; the same on every replica, and kept: secrets sealed with a lost key cannot be read back. `npm start` keeps one in `.data/secrets-key`; `npm run account` works without it.",
  ),
  PASSWORD_SCRYPT_N: z.coerce
    .number()
    .int()
    .min(2 ** 10)
    .max(2 ** 20)
    .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
    .default(2 ** 17)
    .describe(
      "scrypt cost N of new password hashes (r=8, p=1): a power of two from 2^10 to 2^20. The default, 2^17 (128 MiB a hash), is OWASP's minimum; lower it only in tests.",
    ),
  PASSWORD_KDF_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'Password hashes computed at a time, each on a thread of its own. Unset: one less than the cores, at least 1, so a flood of logins never takes every core.',
    ),
  PASSWORD_KDF_NICE: z.coerce
    .number()
    .int()
    .min(0)
    .max(19)
    .default(0)
    .describe(
      'Nice value of those threads on Linux (0-19; 0: normal priority). Above 0 the KDF takes only CPU nothing else wants; on a host that is often saturated that starves logins.',
    ),
  ...authMaxFailuresField(
    "Consecutive failed logins of one username before it is locked out, counted here for every gateway replica (the gateway's variable of the same name counts per replica in front of it).",
  ),
  ...authLockoutField,
  PASSWORD_KDF_QUEUE: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(64)
    .describe(
      'Password checks that may wait for a KDF thread. Beyond it a check is refused at once (503 + `Retry-After` at the API) rather than queued behind minutes of work; the owner re-verifying a known password is never refused. A check whose caller has gone leaves the queue.',
    ),
  CONSOLE_SESSION_TTL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(30 * 24 * 3_600_000)
    .default(12 * 3_600_000)
    .describe('How long a browser session of the console lasts at most from sign-in, in ms (default 12 h).'),
  CONSOLE_SESSION_IDLE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .default(30 * 60_000)
    .describe('A browser session unused for this long ends, in ms (default 30 min).'),
  ...pruneIntervalField('audit entries, ended browser sessions, idempotency keys'),
  SESSION_LAUNCH_RATE_PER_ACCOUNT: z.coerce
    .number()
    .min(0)
    .max(100_000)
    .default(20)
    .describe(
      'Sessions one account may launch per second through the Session API, whatever its tokens and whichever gateway replica (counted in Postgres; 0 = no limit), after a burst of `SESSION_LAUNCH_BURST_PER_ACCOUNT`; beyond it 429 + `Retry-After`.',
    ),
  SESSION_LAUNCH_BURST_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(40)
    .describe('Burst of session launches allowed per account.'),
  APPLICATION_TOKENS_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(100)
    .describe('Session tokens one application may hold (409 `limit_exceeded` beyond).'),
});

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = parseConfig(schema, env);
  // One token for both callers would let the dispatcher make the gateway's calls.
  if (config.GATEWAY_RPC_TOKEN !== undefined && config.GATEWAY_RPC_TOKEN === config.INTERNAL_RPC_TOKEN)
    throw new Error('invalid configuration: GATEWAY_RPC_TOKEN must differ from INTERNAL_RPC_TOKEN');
  return config;
}

/** The account command's configuration: SECRETS_KEY is optional there (only migrations that seal rows need it). */
export function loadCommandConfig(env: Record<string, string | undefined> = process.env) {
  return parseConfig(schema.extend({ SECRETS_KEY: secretsKey.optional() }), env);
}
