// Configuration of the dispatcher: one zod schema, parsed once at start. A bad value stops the
// process with a message naming the variable (docs/api-rules.md#configuration).
import { z } from 'zod';
import { grpcAddress, logLevel, natsServers, parseCidrList, parseConfig, port, storeLimitFields } from '@switchboard/platform';
import { defaultGiveUpAfterMs, deliveriesRetentionMs, parseDuration, parseSchedule } from './delivery/retry';

const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

function toDuration(v: string, ctx: z.RefinementCtx): number {
  try {
    return parseDuration(v);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
}

const duration = (def: string) => z.string().default(def).transform(toDuration);

const schema = z
  .object({
    /** NATS with JetStream: inbound events (docs/events.md#inbound) and the dispatcher's own delivery jobs. */
    NATS_URL: natsServers('nats://127.0.0.1:4222'),
    /** Replicas of the JetStream streams this process creates. */
    NATS_STREAM_REPLICAS: int(1, 1, 5),
    ...storeLimitFields,
    /** Applications service (LookupApplication). */
    APPLICATIONS_GRPC_URL: grpcAddress('127.0.0.1:50051'),
    /** Webhooks service (MatchSubscriptions, RecordAttempts). */
    WEBHOOKS_GRPC_URL: grpcAddress('127.0.0.1:50052'),
    /** HTTP port of /healthz, /readyz and /metrics. */
    OPS_PORT: port(8083),
    /** Interface of the ops server. */
    HOST: z.string().default('0.0.0.0'),
    /** Per-attempt HTTP timeout (connect, DNS, headers and body together). */
    DELIVERY_TIMEOUT_MS: int(15_000, 100, 300_000),
    /** Delays between attempts: "5s,5m,30m": attempt 2 after 5 s, attempt 3 after 5 min more, ... Units ms, s, m, h, d. */
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
      }),
    /** Relative jitter of each retry delay: 0.2 spreads a 10 s delay over 8..12 s. */
    DELIVERY_RETRY_JITTER: z.coerce.number().min(0).max(1).default(0.2),
    /** Longest wait a target can ask for with Retry-After. */
    DELIVERY_RETRY_AFTER_MAX: duration('1h'),
    /**
     * Age (since JetStream stored the event) after which a delivery still waiting for its host
     * (breaker open, host busy) is recorded as failed instead of waiting again. Unset: the whole
     * retry schedule plus one day, always within the retention of the deliveries stream.
     */
    DELIVERY_GIVE_UP_AFTER: z
      .string()
      .optional()
      .transform((v, ctx) => (v ? toDuration(v, ctx) : undefined)),
    /** Private ranges that targets may use anyway, e.g. "127.0.0.0/8,::1/128" in tests. */
    DELIVERY_ALLOWED_CIDRS: z
      .string()
      .default('')
      .transform((v, ctx) => {
        try {
          return parseCidrList(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }),
    /** HTTP attempts in flight at once, over all targets. */
    DELIVERY_CONCURRENCY: int(64, 1, 10_000),
    /** HTTP attempts in flight at once to one host; the rest wait in the host's queue. */
    DELIVERY_HOST_CONCURRENCY: int(16, 1, 10_000),
    /**
     * Jobs waiting in memory (un-acknowledged, kept alive) for a slot, in a FIFO queue per host:
     * at most DELIVERY_HOST_QUEUE for one host and DELIVERY_QUEUE over all hosts; beyond, a job is
     * deferred through JetStream. The events consumer may hold DELIVERY_QUEUE + 1000 messages.
     * By default one host may use the whole queue: a burst to one host is then attempted once
     * per event, in order, up to DELIVERY_QUEUE events at once (a deferred job comes back only
     * after its host's queue would have drained, out of order). A lower value keeps room for the
     * other hosts during such a burst, at the price of deferring the rest of the burst.
     */
    DELIVERY_HOST_QUEUE: int(10_000, 1, 1_000_000),
    DELIVERY_QUEUE: int(10_000, 1, 1_000_000),
    /**
     * How long JetStream waits for an acknowledgement before it re-delivers a message to another
     * consumer instance (after a crash, this is how long in-flight work waits). Must exceed
     * DELIVERY_TIMEOUT_MS; long waits (records) send in-progress signals.
     */
    JETSTREAM_ACK_WAIT: duration('45s'),
    /** Scheduled retries JetStream holds for the retry consumer (its max_ack_pending). */
    DELIVERY_MAX_SCHEDULED: int(100_000, 1000, 10_000_000),
    /**
     * Of those, at most this many of one target (subscription, or application for sessions) per
     * dispatcher; its further retries are parked outside the window. Unset: DELIVERY_MAX_SCHEDULED / 20.
     */
    DELIVERY_SCHEDULED_PER_TARGET: z.coerce.number().int().min(10).max(10_000_000).optional(),
    /**
     * Circuit breaker per target host (opossum). It opens when, within the rolling window, at least
     * VOLUME_THRESHOLD attempts were made and more than ERROR_THRESHOLD_PERCENT of them failed
     * (timeouts, connection errors, 5xx and 429; other statuses are the target's answer, not a
     * sign of ill health). While open, deliveries to that host wait; after RESET_TIMEOUT one
     * attempt probes the host (half-open) and closes the breaker when it succeeds.
     */
    DELIVERY_BREAKER_ERROR_THRESHOLD_PERCENT: int(50, 1, 100),
    DELIVERY_BREAKER_VOLUME_THRESHOLD: int(10, 1, 100_000),
    DELIVERY_BREAKER_RESET_TIMEOUT: duration('30s'),
    /** Rolling window of the breaker statistics, split into BUCKETS buckets (window must divide evenly). */
    DELIVERY_BREAKER_WINDOW: duration('10s'),
    DELIVERY_BREAKER_WINDOW_BUCKETS: int(10, 1, 1000),
    /** A breaker unused for this long is dropped from memory (it starts closed when needed again). */
    DELIVERY_BREAKER_IDLE_EVICT: duration('10m'),
    /** Safety-net lifetime of cached application URLs and subscription matches; change events invalidate sooner. */
    LOOKUP_CACHE_TTL: duration('5s'),
    /** Attempt records are published to JetStream in batches: every FLUSH_INTERVAL, or at once when BATCH_SIZE records wait. */
    RECORD_FLUSH_INTERVAL: duration('20ms'),
    RECORD_BATCH_SIZE: int(250, 1, 1000),
    /**
     * Sessions are real-time (a caller is waiting): SESSION_DEADLINE_MS bounds all attempts of one
     * session (primary URL and fallback), SESSION_TIMEOUT_MS each attempt (connect to end of body).
     */
    SESSION_DEADLINE_MS: int(10_000, 200, 120_000),
    SESSION_TIMEOUT_MS: int(5000, 200, 60_000),
    LOG_LEVEL: logLevel,
  })
  .superRefine((c, ctx) => {
    if (c.DELIVERY_BREAKER_WINDOW % c.DELIVERY_BREAKER_WINDOW_BUCKETS !== 0)
      ctx.addIssue({ code: 'custom', path: ['DELIVERY_BREAKER_WINDOW'], message: 'must be a multiple of DELIVERY_BREAKER_WINDOW_BUCKETS milliseconds' });
    if (c.DELIVERY_BREAKER_WINDOW < 100) ctx.addIssue({ code: 'custom', path: ['DELIVERY_BREAKER_WINDOW'], message: 'must be at least 100ms' });
    if (c.DELIVERY_BREAKER_RESET_TIMEOUT < 100) ctx.addIssue({ code: 'custom', path: ['DELIVERY_BREAKER_RESET_TIMEOUT'], message: 'must be at least 100ms' });
    if (c.RECORD_FLUSH_INTERVAL < 1 || c.RECORD_FLUSH_INTERVAL > 10_000)
      ctx.addIssue({ code: 'custom', path: ['RECORD_FLUSH_INTERVAL'], message: 'must be between 1ms and 10s' });
    if (c.JETSTREAM_ACK_WAIT < c.DELIVERY_TIMEOUT_MS + 5000)
      ctx.addIssue({ code: 'custom', path: ['JETSTREAM_ACK_WAIT'], message: 'must be at least DELIVERY_TIMEOUT_MS + 5s' });
    // Give up at least a day before the deliveries stream could drop the job.
    if (c.DELIVERY_GIVE_UP_AFTER !== undefined && c.DELIVERY_GIVE_UP_AFTER > deliveriesRetentionMs(c.DELIVERY_RETRY_SCHEDULE) - 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['DELIVERY_GIVE_UP_AFTER'], message: 'must be at least a day shorter than the deliveries stream keeps jobs (the longer of 7 days and the retry schedule plus 2 days)' });
    if (c.SESSION_TIMEOUT_MS > c.SESSION_DEADLINE_MS)
      ctx.addIssue({ code: 'custom', path: ['SESSION_TIMEOUT_MS'], message: 'must not exceed SESSION_DEADLINE_MS' });
    if (c.DELIVERY_HOST_QUEUE > c.DELIVERY_QUEUE) ctx.addIssue({ code: 'custom', path: ['DELIVERY_HOST_QUEUE'], message: 'must not exceed DELIVERY_QUEUE' });
    if (c.DELIVERY_HOST_CONCURRENCY > c.DELIVERY_CONCURRENCY)
      ctx.addIssue({ code: 'custom', path: ['DELIVERY_HOST_CONCURRENCY'], message: 'must not exceed DELIVERY_CONCURRENCY' });
  })
  .transform((c) => ({
    ...c,
    DELIVERY_GIVE_UP_AFTER: c.DELIVERY_GIVE_UP_AFTER ?? defaultGiveUpAfterMs(c.DELIVERY_RETRY_SCHEDULE),
    DELIVERY_SCHEDULED_PER_TARGET: c.DELIVERY_SCHEDULED_PER_TARGET ?? Math.max(10, Math.floor(c.DELIVERY_MAX_SCHEDULED / 20)),
  }));

export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(schema, env);
}
