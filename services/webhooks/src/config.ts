import { z } from 'zod';
import { cidrList, duration, grpcAddress, parseConfig, pruneIntervalField } from '@switchboard/config';
import { secretsKey } from '@switchboard/security';
import { storeServiceFields } from '@switchboard/store-service';

export const schema = z.object({
  ...storeServiceFields({
    grpcPort: 50052,
    opsPort: 8082,
    dbSchema: 'webhooks',
    internalRpcToken:
      'Bearer token the dispatcher must send for `MatchSubscriptions` and `GetDeliveryTarget` (they answer signing secrets); unset: served to every caller.',
    natsUrl:
      'NATS with JetStream (consumes `applications.deleted` and the attempt records, publishes `webhooks.changed`): one server, or the members of a cluster comma-separated.',
  }),
  APPLICATIONS_GRPC_URL: grpcAddress('127.0.0.1:50051').describe(
    'The applications service (gRPC host:port): checks that an application belongs to the caller.',
  ),
  APPLICATIONS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(3000)
    .describe('Deadline of calls to the applications service, in ms.'),
  DELIVERY_ALLOWED_CIDRS: cidrList.describe(
    'Private ranges (comma-separated CIDRs) that target URLs may use anyway; tests set `127.0.0.0/8,::1/128`.',
  ),
  DELIVERY_DISABLE_AFTER: duration('5d').describe(
    'A subscription whose deliveries have all failed for this long (from its first failed attempt since the last success) is disabled and announced as `webhookDisabled`. `5d`, `36h`, ISO 8601 `P5D`, or milliseconds; `0` turns the rule off.',
  ),
  RECORD_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(2)
    .describe("Batches of the dispatchers' attempt records (`deliveries.records`) stored at once."),
  PUBLIC_BASE_URL: z
    .string()
    .default('http://localhost:8080')
    .refine((v) => /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(v), 'must be an absolute http(s) URL without query')
    .transform((v) => v.replace(/\/+$/, ''))
    .describe(
      "The `{base_url}` of the hrefs in `webhookDisabled` notifications: give it the gateway's `PUBLIC_BASE_URL`.",
    ),
  DELIVERY_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1: delivery records are always pruned')
    .max(3650)
    .default(30)
    .describe(
      'Delivery records (with their kept bodies, statistics, resends and recovery tasks) older than this many days are deleted (1 to 3650): whole days at a time, so a record is kept up to one day longer.',
    ),
  SESSION_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1: session records are always dropped')
    .max(3650)
    .default(7)
    .describe(
      "Session records (the session inspector) and their signals are kept this many days; a day's records are dropped whole (1 to 3650).",
    ),
  ...pruneIntervalField(
    'partitions ahead, old records, bodies, rollups, signals, audit entries, idempotency keys and tombstones',
  ),
  TOMBSTONE_RETENTION_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(365 * 86_400_000)
    .default(7 * 86_400_000)
    .describe(
      'Tombstones of deleted accounts and applications (which stop a create racing with the deletion) are kept this long, in ms (default 7 days). Tests set a minute.',
    ),
  ALERT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1: alerts are always dropped')
    .max(3650)
    .default(30)
    .describe('Alerts (`GET /v1/alerts`) are kept this many days; a day of alerts is dropped whole (1 to 3650).'),
  USAGE_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1: usage is always pruned')
    .max(3650)
    .default(400)
    .describe(
      'Usage counts (`GET /v1/usage`, per account, application, category and UTC day) are kept this many days (1 to 3650); the default keeps 13 months for monthly usage.',
    ),
  USAGE_TRIGGER_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(30_000, 'must be at most 30000: a usage trigger fires within 60 s of the crossing')
    .default(30_000)
    .describe(
      'How often usage triggers are evaluated against the usage counts, in ms (at most 30 s, so one fires within 60 s of the crossing); one replica at a time. Tests set less.',
    ),
  TEST_REPLY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(200)
    .max(300_000)
    .default(20_000)
    .describe(
      "How long a test send (`POST /v1/webhooks/:id/test`) waits for a dispatcher's answer, in ms (then 504): above the dispatchers' `DELIVERY_TIMEOUT_MS`, so that a slow target is answered as such.",
    ),
  TEST_SENDS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(5)
    .describe('Test sends per subscription per minute; more are answered 429 with `Retry-After`.'),
  RECOVERY_MAX_DELIVERIES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(10_000)
    .describe('Most deliveries one recovery may queue; a window holding more is refused (400: narrow it).'),
  RESEND_IN_FLIGHT_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1000)
    .describe(
      "Most of an account's resends (one-off and recoveries) handed to the dispatchers and not yet recorded; the rest wait in Postgres, so a recovery towards a receiver that is down cannot fill the shared deliveries stream.",
    ),
  RESENDS_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1000)
    .describe('Resends per account per hour (counted in the database, over every replica); more are answered 429.'),
  RECOVERIES_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(20)
    .describe('Recoveries per account per hour (counted in the database, over every replica); more are answered 429.'),
  SECRETS_KEY: secretsKey.describe(
    "32-byte key, base64 or hex, sealing the subscriptions' signing secrets and `Authorization` headers at rest (AES-256-GCM). Required; the same on every replica and kept.",
  ),
});

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(schema, env);
}
