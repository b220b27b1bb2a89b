// The dispatcher's Prometheus registry. Labels hold only small fixed sets (never URLs or ids).
import { Counter, Gauge, Histogram, createRegistry, type Registry } from '@switchboard/observability';
import { WAITING_END_REASONS } from '@switchboard/contracts';

export type Outcome = 'succeeded' | 'retrying' | 'failed' | 'cancelled';

export interface DispatcherMetrics {
  registry: Registry;
  deliveries: Counter<'kind' | 'outcome'>;
  attemptDuration: Histogram<'kind'>;
  retriesScheduled: Counter<'kind'>;
  deferred: Counter<'kind' | 'reason'>;
  skipped: Counter<'kind' | 'reason'>;
  breakers: Gauge<'state'>;
  consumerPending: Gauge<'consumer'>;
  retriesWaiting: Gauge;
  streamUsed: Gauge<'stream'>;
  deadLettered: Counter<'subject' | 'reason'>;
  terminated: Counter<'subject'>;
  fannedOut: Counter<'kind'>;
  recordsBuffered: Gauge;
  sessions: Counter<'result' | 'reason'>;
  sessionDuration: Histogram<'result'>;
  outcomePublishRetries: Counter;
  parked: Counter<'kind'>;
  queuedJobs: Gauge;
  queuedHosts: Gauge;
  ended: Counter<'reason'>;
  backlogFullest: Gauge;
  backlogLedgerErrors: Counter;
  throttled: Counter;
  throttledWaiting: Gauge;
  throttleErrors: Counter;
  throttledCountsDropped: Counter;
  recordBufferBytes: Gauge;
  recordBackPressure: Counter;
  orderingUnordered: Counter<'reason'>;
  orderingHeld: Counter;
  orderingWoken: Counter;
  orderingOverCap: Counter;
  orderingOps: Counter<'op'>;
  orderingFailuresForgotten: Counter;
}

/** What the host limiter holds now (totals: hosts are never a label). */
export interface QueueDepth {
  waiting: number;
  waitingHosts: number;
  active: number;
}

export function createMetrics(
  breakerCounts: () => Record<'closed' | 'open' | 'half_open', number>,
  queue: () => QueueDepth = () => ({ waiting: 0, waitingHosts: 0, active: 0 }),
  backlogFullest: () => number = () => 0,
): DispatcherMetrics {
  const registry = createRegistry('dispatcher');
  const metrics: DispatcherMetrics = {
    registry,
    deliveries: new Counter({
      name: 'dispatcher_deliveries_total',
      help: 'Delivery attempts by kind (session, notification) and outcome (succeeded, retrying, failed).',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    attemptDuration: new Histogram({
      name: 'dispatcher_attempt_duration_seconds',
      help: 'Duration of one HTTP delivery attempt in seconds, by kind.',
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers: [registry],
    }),
    retriesScheduled: new Counter({
      name: 'dispatcher_retries_scheduled_total',
      help: 'Retries scheduled after a failed attempt, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    deferred: new Counter({
      name: 'dispatcher_deliveries_deferred_total',
      help: "Jobs deferred through JetStream without an attempt, by kind and reason (breaker_open, host_busy: slots held by hanging attempts, queue_full: the host's or the global in-memory queue is full, shutdown, lookup_unavailable, throttled: waiting for its slot of the subscription's rate limit).",
      labelNames: ['kind', 'reason'],
      registers: [registry],
    }),
    skipped: new Counter({
      name: 'dispatcher_deliveries_skipped_total',
      help: 'Jobs dropped without an attempt because their subscription no longer matches (deleted, disabled, changed).',
      labelNames: ['kind', 'reason'],
      registers: [registry],
    }),
    breakers: new Gauge({
      name: 'dispatcher_breakers',
      help: 'Circuit breakers of target hosts by state (closed, open, half_open).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const c = breakerCounts();
        for (const state of ['closed', 'open', 'half_open'] as const) this.set({ state }, c[state]);
      },
    }),
    consumerPending: new Gauge({
      name: 'dispatcher_consumer_pending',
      help: 'Backlog of a JetStream consumer, by consumer: messages not yet delivered plus those in progress (for the retry consumer, only retries that are due: scheduled ones are dispatcher_retries_waiting).',
      labelNames: ['consumer'],
      registers: [registry],
    }),
    retriesWaiting: new Gauge({
      name: 'dispatcher_retries_waiting',
      help: "Retries and deferred deliveries held by JetStream until their time comes (the retry consumer's unacknowledged messages).",
      registers: [registry],
    }),
    streamUsed: new Gauge({
      name: 'dispatcher_stream_used_ratio',
      help: 'Bytes a JetStream stream or key-value bucket holds over its max_bytes, by stream: at 1 it refuses new messages (publishers answer 503).',
      labelNames: ['stream'],
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: 'dispatcher_events_dead_lettered_total',
      help: 'Inbound events refused for good and copied to events.dead, by subject and reason (schema, refused, serialisation, too_many_deliveries).',
      labelNames: ['subject', 'reason'],
      registers: [registry],
    }),
    terminated: new Counter({
      name: 'dispatcher_messages_terminated_total',
      help: 'Messages rejected for good (malformed JSON or schema-invalid), by subject.',
      labelNames: ['subject'],
      registers: [registry],
    }),
    fannedOut: new Counter({
      name: 'dispatcher_jobs_created_total',
      help: 'Delivery jobs created from inbound events (one per target), by kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    recordsBuffered: new Gauge({
      name: 'dispatcher_attempt_records_buffered',
      help: 'Attempt records waiting to be stored by the webhooks service.',
      registers: [registry],
    }),
    sessions: new Counter({
      name: 'dispatcher_sessions_total',
      help: 'Sessions ended, by result (instructed, failed) and reason of a failure (docs/events.md#session-loop; none when instructed).',
      labelNames: ['result', 'reason'],
      registers: [registry],
    }),
    sessionDuration: new Histogram({
      name: 'dispatcher_session_duration_seconds',
      help: "Time from the start of a session's first attempt (lookup included) to its outcome, in seconds, by result.",
      labelNames: ['result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    }),
    outcomePublishRetries: new Counter({
      name: 'dispatcher_session_outcome_publish_retries_total',
      help: 'Session outcomes (instructions, failures) whose publish failed and was tried again; the session itself never runs again because of it.',
      registers: [registry],
    }),
    parked: new Counter({
      name: 'dispatcher_retries_parked_total',
      help: "Retry jobs parked outside the retry consumer's window because their target had its share of it (DELIVERY_SCHEDULED_PER_TARGET), by kind.",
      labelNames: ['kind'],
      registers: [registry],
    }),
    queuedJobs: new Gauge({
      name: 'dispatcher_host_queue_jobs',
      help: 'Delivery jobs waiting in memory for a slot of their host (all hosts together).',
      registers: [registry],
      collect() {
        this.set(queue().waiting);
      },
    }),
    queuedHosts: new Gauge({
      name: 'dispatcher_host_queue_hosts',
      help: 'Target hosts with delivery jobs waiting in memory for a slot.',
      registers: [registry],
      collect() {
        this.set(queue().waitingHosts);
      },
    }),
    ended: new Counter({
      name: 'dispatcher_deliveries_ended_total',
      help: "Waiting notifications ended as failed without a further attempt, by reason: backlog_full (among the oldest of an account past DELIVERY_BACKLOG_PER_ACCOUNT or DELIVERY_BACKLOG_BYTES_PER_ACCOUNT), expired (past DELIVERY_MAX_AGE), held_too_long (an ordered delivery past its subscription's ordering.maxHoldSeconds).",
      labelNames: ['reason'],
      registers: [registry],
    }),
    backlogFullest: new Gauge({
      name: 'dispatcher_delivery_backlog_fullest_ratio',
      help: "The fullest account's waiting notifications over its backlog limit (the larger of count and bytes), among the accounts this replica read or wrote in the last minute: at 1 its oldest start to end as backlog_full.",
      registers: [registry],
      collect() {
        this.set(backlogFullest());
      },
    }),
    backlogLedgerErrors: new Counter({
      name: 'dispatcher_delivery_backlog_ledger_errors_total',
      help: 'Reads and writes of the shared backlog count (key-value bucket DELIVERY_BACKLOG) that failed; the delivery went on uncounted.',
      registers: [registry],
    }),
    throttled: new Counter({
      name: 'dispatcher_deliveries_throttled_total',
      help: "Deliveries held for a later slot of their subscription's rate limit (`rateLimit.perSecond`): they wait in JetStream, no attempt used.",
      registers: [registry],
    }),
    throttledWaiting: new Gauge({
      name: 'dispatcher_throttled_waiting',
      help: "Deliveries held by JetStream until their slot of their subscription's rate limit (the throttled consumer's unacknowledged messages).",
      registers: [registry],
    }),
    throttleErrors: new Counter({
      name: 'dispatcher_delivery_throttle_errors_total',
      help: 'Reservations of a rate-limit slot (key-value bucket DELIVERY_THROTTLE) that failed; the delivery went without waiting.',
      registers: [registry],
    }),
    throttledCountsDropped: new Counter({
      name: 'dispatcher_throttled_counts_dropped_total',
      help: "Throttled deliveries left out of the statistics because their counts could not be sent to the webhooks service and the dispatcher's buffer of them was full.",
      registers: [registry],
    }),
    recordBufferBytes: new Gauge({
      name: 'dispatcher_record_buffer_bytes',
      help: 'Bytes of attempt and session records in memory until JetStream has them (RECORD_BUFFER_MAX_BYTES).',
      registers: [registry],
    }),
    recordBackPressure: new Counter({
      name: 'dispatcher_record_buffer_full_total',
      help: 'Messages whose handling waited because the record buffer was at RECORD_BUFFER_MAX_BYTES (the consumers stop pulling meanwhile).',
      registers: [registry],
    }),
    orderingUnordered: new Counter({
      name: 'dispatcher_ordering_unordered_total',
      help: 'Notifications of subscriptions with ordering delivered unordered, by reason: no_key (the event has no value under the key), held_keys_full (its key began to wait past DELIVERY_ORDERING_MAX_HELD_KEYS), key_full (DELIVERY_ORDERING_MAX_WAITING_PER_KEY wait behind its key), bucket_full (the bucket DELIVERY_ORDERING is 90% full: no new key line is started), store_unavailable (the bucket DELIVERY_ORDERING could not be written).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    orderingHeld: new Counter({
      name: 'dispatcher_ordering_held_total',
      help: 'Deliveries (notifications and resends) that waited for their turn behind an earlier delivery of their ordering key: in the memory of the dispatcher that runs that one, or stored.',
      registers: [registry],
    }),
    orderingWoken: new Counter({
      name: 'dispatcher_ordering_woken_total',
      help: 'Waiting deliveries whose turn came because the delivery before them ended (run at once when they waited in that dispatcher, else their stored copy republished).',
      registers: [registry],
    }),
    orderingOverCap: new Counter({
      name: 'dispatcher_ordering_keys_over_cap_total',
      help: 'Ordering keys that began to wait while their subscription held DELIVERY_ORDERING_MAX_HELD_KEYS keys: not held, their new events go out unordered until the key is idle.',
      registers: [registry],
    }),
    orderingFailuresForgotten: new Counter({
      name: 'dispatcher_ordering_failures_forgotten_total',
      help: "Ordering keys whose last delivery failed, forgotten after DELIVERY_ORDERING_FAILURE_MEMORY with nothing pending: their line is deleted, and the key's next event goes without previousFailed.",
      registers: [registry],
    }),
    orderingOps: new Counter({
      name: 'dispatcher_ordering_bucket_operations_total',
      help: 'Round trips to JetStream made for ordering by key, by op: write (compare-and-set of a key line), read (a line read), delete (a line or marker deleted), store (a waiting delivery stored, woken, or its copy deleted).',
      labelNames: ['op'],
      registers: [registry],
    }),
  };
  for (const reason of ['no_key', 'held_keys_full', 'key_full', 'bucket_full', 'store_unavailable'])
    metrics.orderingUnordered.inc({ reason }, 0);
  // Both reasons exposed from the start (at 0), so increase() sees the first one.
  for (const reason of WAITING_END_REASONS) metrics.ended.inc({ reason }, 0);
  return metrics;
}
