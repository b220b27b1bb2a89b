// Configuration of the dispatcher: one zod schema, parsed once at start. A bad value stops the
// process with a message naming the variable (docs/api-rules.md#configuration).
import { z } from 'zod';
import {
  cidrList,
  duration,
  grpcAddress,
  intField as int,
  logLevel,
  natsServers,
  parseConfig,
  port,
} from '@switchboard/config';
import { storeLimitFields, natsAuthFields } from '@switchboard/messaging';
import { defaultGiveUpAfterMs, deliveriesRetentionMs, parseDuration, parseSchedule } from './delivery/retry.ts';

function toDuration(v: string, ctx: z.RefinementCtx): number {
  try {
    return parseDuration(v);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
}

export const schema = z
  .object({
    NATS_URL: natsServers('nats://127.0.0.1:4222').describe(
      "NATS with JetStream: inbound events and the dispatcher's own delivery jobs; one server, or the members of a cluster comma-separated.",
    ),
    ...natsAuthFields(),
    NATS_STREAM_REPLICAS: int(1, 1, 5).describe(
      'Replicas of the JetStream streams this process creates (3 in a NATS cluster).',
    ),
    ...storeLimitFields,
    APPLICATIONS_GRPC_URL: grpcAddress('127.0.0.1:50051').describe(
      'The applications service (gRPC host:port): application lookups and address owners.',
    ),
    WEBHOOKS_GRPC_URL: grpcAddress('127.0.0.1:50052').describe(
      'The webhooks service (gRPC host:port): matching subscriptions and delivery targets.',
    ),
    APPLICATIONS_RPC_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe('The `INTERNAL_RPC_TOKEN` of the applications service, sent with every call to it; unset: none sent.'),
    WEBHOOKS_RPC_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe('The `INTERNAL_RPC_TOKEN` of the webhooks service, sent with every call to it; unset: none sent.'),
    OPS_PORT: port(8083).describe('HTTP port of `/healthz`, `/readyz` and `/metrics`.'),
    HOST: z.string().default('0.0.0.0').describe('Interface of the ops server.'),
    DELIVERY_TIMEOUT_MS: int(15_000, 100, 300_000).describe(
      'Per-attempt HTTP timeout of notifications, in ms (connect, DNS, headers and body together).',
    ),
    DELIVERY_OAUTH2_TOKENS_MAX: int(10_000, 1, 1_000_000).describe(
      'OAuth2 access tokens of subscriptions (`auth`) each dispatcher keeps in memory; past it the least recently used is dropped (and fetched again when needed).',
    ),
    DELIVERY_RETRY_SCHEDULE: z
      .string()
      .default('5s,5m,30m,2h,5h,10h,14h,20h,24h')
      .transform((v, ctx) => {
        try {
          const s = parseSchedule(v);
          if (s.length > 50) throw new Error('at most 50 retries');
          return s;
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      })
      .describe(
        'Delays between attempts: `5s,5m,30m` means attempt 2 after 5 s, attempt 3 after 5 min more, ... Units ms, s, m, h, d; at most 50 retries.',
      ),
    DELIVERY_RETRY_JITTER: z.coerce
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .describe('Relative jitter of each retry delay: 0.2 spreads a 10 s delay over 8-12 s.'),
    DELIVERY_RETRY_AFTER_MAX: duration('1h').describe('Longest wait a target can ask for with `Retry-After`.'),
    DELIVERY_GIVE_UP_AFTER: z
      .string()
      .optional()
      .transform((v, ctx) => (v ? toDuration(v, ctx) : undefined))
      .describe(
        'Age (since JetStream stored the event) after which a delivery still waiting for its host (breaker open, host busy) is recorded as failed. Unset: the whole retry schedule plus one day, always within the retention of the deliveries stream.',
      ),
    DELIVERY_MAX_AGE: z
      .string()
      .optional()
      .transform((v, ctx) => (v ? toDuration(v, ctx) : undefined))
      .describe(
        'Age (since JetStream stored the event) past which a notification still waiting (for a retry, or for its host) ends as failed with reason `expired`, without a further attempt. Unset: the whole retry schedule plus one day; at least 1 s, and a day shorter than the deliveries stream keeps jobs.',
      ),
    DELIVERY_BACKLOG_PER_ACCOUNT: int(10_000, 1, 10_000_000).describe(
      "Notifications of one account waiting at once (retries, and deliveries deferred while their host cannot take them), counted over every dispatcher replica. Past it, the account's oldest waiting deliveries end as failed with reason `backlog_full`; other accounts are not affected.",
    ),
    DELIVERY_BACKLOG_BYTES_PER_ACCOUNT: int(32 * 1024 * 1024, 1024, 2 ** 40).describe(
      "Bytes of one account's waiting notification jobs in the deliveries stream, counted like `DELIVERY_BACKLOG_PER_ACCOUNT`; past it, the oldest end as failed with reason `backlog_full`.",
    ),
    DELIVERY_BACKLOG_RECHECK: duration('10m').describe(
      'Longest a waiting notification is held by JetStream before it is looked at again (its account over its backlog, its max age): how late, at most, the oldest deliveries of an account past its cap end (at least 1 s).',
    ),
    DELIVERY_ORDERING_MAX_HELD_KEYS: int(10_000, 1, 1_000_000).describe(
      'Ordering keys one subscription may hold at once (a delivery of the key waiting for a retry, its later events waiting behind it). A key that begins to wait past it is not held: its new events are delivered unordered (dispatcher_ordering_unordered_total) until it is idle.',
    ),
    DELIVERY_ORDERING_FAILURE_MEMORY: duration('1h').describe(
      "How long an ordering key whose last delivery failed is remembered while nothing of it is pending: its next event within it carries `previousFailed`; after it the key's line is deleted from the DELIVERY_ORDERING bucket (at least 1 s).",
    ),
    DELIVERY_ORDERING_MAX_WAITING_PER_KEY: int(1000, 1, 100_000).describe(
      'Deliveries that may wait behind the delivery whose turn it is, per ordering key; further events of the key are delivered unordered (counted).',
    ),
    DELIVERY_ALLOWED_CIDRS: cidrList.describe(
      'Private ranges (comma-separated CIDRs) that targets may use anyway; tests set `127.0.0.0/8,::1/128`.',
    ),
    DELIVERY_CONCURRENCY: int(64, 1, 10_000).describe('HTTP attempts in flight at once, over all targets.'),
    DELIVERY_HOST_CONCURRENCY: int(16, 1, 10_000).describe(
      "HTTP attempts in flight at once to one host for one account; the rest wait in that account's queue for the host (at most `DELIVERY_CONCURRENCY`).",
    ),
    DELIVERY_HOST_QUEUE: int(10_000, 1, 1_000_000).describe(
      'Jobs waiting in memory for a slot to one host (FIFO per host); beyond, a job is deferred through JetStream. By default one host may use the whole queue, so a burst to one host is attempted once per event, in order; a lower value keeps room for other hosts at the price of deferring the rest of the burst.',
    ),
    DELIVERY_QUEUE: int(10_000, 1, 1_000_000).describe(
      'Jobs waiting in memory for a slot over all hosts; the events consumer may hold this + 1000 messages.',
    ),
    JETSTREAM_ACK_WAIT: duration('45s').describe(
      'How long JetStream waits for an acknowledgement before it re-delivers a message to another dispatcher (after a crash, how long in-flight work waits). At least `DELIVERY_TIMEOUT_MS` + 5 s.',
    ),
    DELIVERY_MAX_SCHEDULED: int(100_000, 1000, 10_000_000).describe(
      'Scheduled retries JetStream holds for the retry consumer (its `max_ack_pending`).',
    ),
    DELIVERY_SCHEDULED_PER_TARGET: z.coerce
      .number()
      .int()
      .min(10)
      .max(10_000_000)
      .optional()
      .describe(
        'Of those, at most this many of one target (subscription, or application for sessions) per dispatcher; its further retries are parked outside the window. Unset: `DELIVERY_MAX_SCHEDULED` / 20.',
      ),
    DELIVERY_BREAKER_ERROR_THRESHOLD_PERCENT: int(50, 1, 100).describe(
      'Circuit breaker per account and target host: it opens when, within the rolling window, at least `DELIVERY_BREAKER_VOLUME_THRESHOLD` attempts were made and more than this percentage failed (timeouts, connection errors, 5xx and 429). While open, deliveries to that host wait.',
    ),
    DELIVERY_BREAKER_VOLUME_THRESHOLD: int(10, 1, 100_000).describe(
      'Attempts within the rolling window before the breaker may open.',
    ),
    DELIVERY_BREAKER_RESET_TIMEOUT: duration('30s').describe(
      'How long a breaker stays open before one attempt probes the host (half-open) and closes it on success.',
    ),
    DELIVERY_BREAKER_WINDOW: duration('10s').describe(
      'Rolling window of the breaker statistics (a multiple of `DELIVERY_BREAKER_WINDOW_BUCKETS` milliseconds, at least 100 ms).',
    ),
    DELIVERY_BREAKER_WINDOW_BUCKETS: int(10, 1, 1000).describe('Buckets the breaker window is split into.'),
    DELIVERY_BREAKER_IDLE_EVICT: duration('10m').describe(
      'A breaker unused for this long is dropped from memory (it starts closed when needed again).',
    ),
    DELIVERY_BREAKER_MAX_LANES: int(10_000, 100, 1_000_000).describe(
      'Most breakers (account and host pairs) kept in memory; beyond, the least recently used idle ones are dropped.',
    ),
    LOOKUP_CACHE_TTL: duration('5s').describe(
      'Safety-net lifetime of cached application URLs and subscription matches; change events invalidate them sooner.',
    ),
    RECORD_FLUSH_INTERVAL: duration('20ms').describe(
      'Attempt records are published to JetStream in batches: every this long (1 ms to 10 s), or at once when `RECORD_BATCH_SIZE` records wait.',
    ),
    RECORD_BATCH_SIZE: int(250, 1, 1000).describe('Attempt records per published batch.'),
    RECORD_BUFFER_MAX_BYTES: int(64 * 1024 * 1024, 1024, 2 ** 34).describe(
      'Bytes of attempt and session records held in memory until JetStream has them (while publishes fail and are retried, they stay). At the bound the dispatcher starts no attempt and takes no message from its consumers until records are stored; a record is never dropped, so the records of attempts already in flight (at most `DELIVERY_CONCURRENCY`) may pass it.',
    ),
    SESSION_DEADLINE_MS: int(10_000, 200, 120_000).describe(
      'Budget of all attempts of one session (primary URL and fallback), in ms: a caller is waiting.',
    ),
    SESSION_TIMEOUT_MS: int(5000, 200, 60_000).describe(
      'One session attempt, from connecting to the end of the answer, in ms (at most `SESSION_DEADLINE_MS`).',
    ),
    LOG_LEVEL: logLevel.describe('pino log level.'),
  })
  .superRefine((c, ctx) => {
    const fail = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    if (c.DELIVERY_BREAKER_WINDOW % c.DELIVERY_BREAKER_WINDOW_BUCKETS !== 0)
      fail('DELIVERY_BREAKER_WINDOW', 'must be a multiple of DELIVERY_BREAKER_WINDOW_BUCKETS milliseconds');
    if (c.DELIVERY_BREAKER_WINDOW < 100) fail('DELIVERY_BREAKER_WINDOW', 'must be at least 100ms');
    if (c.DELIVERY_BREAKER_RESET_TIMEOUT < 100) fail('DELIVERY_BREAKER_RESET_TIMEOUT', 'must be at least 100ms');
    if (c.RECORD_FLUSH_INTERVAL < 1 || c.RECORD_FLUSH_INTERVAL > 10_000)
      fail('RECORD_FLUSH_INTERVAL', 'must be between 1ms and 10s');
    if (c.JETSTREAM_ACK_WAIT < c.DELIVERY_TIMEOUT_MS + 5000)
      fail('JETSTREAM_ACK_WAIT', 'must be at least DELIVERY_TIMEOUT_MS + 5s');
    // Give up, and expire, at least a day before the deliveries stream could drop the job.
    const keptMs = deliveriesRetentionMs(c.DELIVERY_RETRY_SCHEDULE) - 86_400_000;
    for (const key of ['DELIVERY_GIVE_UP_AFTER', 'DELIVERY_MAX_AGE'] as const) {
      const v = c[key];
      if (v !== undefined && v > keptMs)
        fail(
          key,
          'must be at least a day shorter than the deliveries stream keeps jobs (the longer of 7 days and the retry schedule plus 2 days)',
        );
    }
    if (c.DELIVERY_MAX_AGE !== undefined && c.DELIVERY_MAX_AGE < 1000) fail('DELIVERY_MAX_AGE', 'must be at least 1s');
    if (c.DELIVERY_BACKLOG_RECHECK < 1000) fail('DELIVERY_BACKLOG_RECHECK', 'must be at least 1s');
    if (c.DELIVERY_ORDERING_FAILURE_MEMORY < 1000) fail('DELIVERY_ORDERING_FAILURE_MEMORY', 'must be at least 1s');
    if (c.SESSION_TIMEOUT_MS > c.SESSION_DEADLINE_MS) fail('SESSION_TIMEOUT_MS', 'must not exceed SESSION_DEADLINE_MS');
    if (c.DELIVERY_HOST_QUEUE > c.DELIVERY_QUEUE) fail('DELIVERY_HOST_QUEUE', 'must not exceed DELIVERY_QUEUE');
    if (c.DELIVERY_HOST_CONCURRENCY > c.DELIVERY_CONCURRENCY)
      fail('DELIVERY_HOST_CONCURRENCY', 'must not exceed DELIVERY_CONCURRENCY');
  })
  .transform((c) => ({
    ...c,
    DELIVERY_GIVE_UP_AFTER: c.DELIVERY_GIVE_UP_AFTER ?? defaultGiveUpAfterMs(c.DELIVERY_RETRY_SCHEDULE),
    DELIVERY_MAX_AGE: c.DELIVERY_MAX_AGE ?? defaultGiveUpAfterMs(c.DELIVERY_RETRY_SCHEDULE),
    DELIVERY_SCHEDULED_PER_TARGET:
      c.DELIVERY_SCHEDULED_PER_TARGET ?? Math.max(10, Math.floor(c.DELIVERY_MAX_SCHEDULED / 20)),
  }));

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(schema, env);
}
