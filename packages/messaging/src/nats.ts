// NATS JetStream plumbing: one connection per process that reconnects forever, the streams of
// the system created idempotently, and a durable pull-consumer loop that survives NATS restarts.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type ConsumerConfig,
  type StreamConfig,
} from '@nats-io/jetstream';
import { headers as natsHeaders, nanos, RequestError, TimeoutError } from '@nats-io/nats-core';
import { backoffMs, intField } from '@switchboard/config';
import { AppError } from '@switchboard/errors';
import type { Logger } from '@switchboard/observability';
import { tracedConsume, tracedPublish } from '@switchboard/observability';
import type { KvBucketSpec, StreamSpec } from '@switchboard/events';
import { z } from 'zod';

export type { NatsConnection, JetStreamClient, JetStreamManager, JsMsg };

/**
 * Default of NATS_STREAM_MAX_BYTES: the most bytes each stream keeps. JetStream reserves every
 * stream's max_bytes against the server's max_file_store: the four streams and the three buckets at
 * their defaults (1168 MiB, the gateway's 16 MiB of shared limits included) fit the 1536 MB of
 * deploy/k8s/infra/nats; larger servers set more.
 */
export const STREAM_MAX_BYTES_DEFAULT = 256 * 1024 * 1024;
/** Default of NATS_KV_MAX_BYTES: the most bytes each key-value bucket keeps. */
export const KV_MAX_BYTES_DEFAULT = 64 * 1024 * 1024;

/**
 * The size limits of the streams and buckets a service creates. A work queue (inbound events,
 * deliveries) holds only unfinished work and refuses publishes when that fills it (the publisher
 * answers 503, streamFull); a replay window (internal, core, the buckets) drops its oldest messages.
 */
export interface StoreLimits {
  streamMaxBytes: number;
  kvMaxBytes: number;
}

export const STORE_LIMITS_DEFAULT: StoreLimits = {
  streamMaxBytes: STREAM_MAX_BYTES_DEFAULT,
  kvMaxBytes: KV_MAX_BYTES_DEFAULT,
};

/**
 * The zod fields of a service's NATS credentials, to spread into its config schema: `NATS_USER` (described by
 * `user`, which says whose user it is and what it may do) and `NATS_PASSWORD`.
 */
export const natsAuthFields = (
  user = "This service's NATS user (the servers' per-service permissions); unset: anonymous.",
) => ({
  NATS_USER: z.string().min(1).optional().describe(user),
  NATS_PASSWORD: z.string().min(1).optional().describe('Password of `NATS_USER`.'),
});

/**
 * The zod field NATS_STREAM_REPLICAS (1 to 5, 3 in a NATS cluster), to spread into a config schema:
 * the replicas of what the service creates, which `description` names.
 */
export const streamReplicasField = (description: string) => ({
  NATS_STREAM_REPLICAS: intField(1, 1, 5).describe(description),
});

/** Config fields every service that creates streams reads (spread into its zod schema). */
export const storeLimitFields = {
  NATS_STREAM_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 50)
    .default(STREAM_MAX_BYTES_DEFAULT)
    .describe(
      "The most bytes each JetStream stream keeps. The work queues (inbound events, deliveries) hold only unfinished work and refuse publishes only when that fills them (a launch answers 503); the replay windows (internal changes, core) drop their oldest messages and never refuse. The total of every stream must stay under the NATS server's `max_file_store`. Tests and the soak set it small (1-2 MiB).",
    ),
  NATS_KV_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 50)
    .default(KV_MAX_BYTES_DEFAULT)
    .describe(
      'The most bytes each JetStream key-value bucket (the session registry, the delivery backlog counts) keeps; a full bucket drops its oldest entries, it never refuses a new one.',
    ),
};

/** The store limits of a config that has storeLimitFields. */
export const storeLimitsOf = (c: { NATS_STREAM_MAX_BYTES: number; NATS_KV_MAX_BYTES: number }): StoreLimits => ({
  streamMaxBytes: c.NATS_STREAM_MAX_BYTES,
  kvMaxBytes: c.NATS_KV_MAX_BYTES,
});

/** True for JetStream's refusal of a publish to a stream at its max_bytes (or max_msgs) with discard new. */
export function isStreamFull(err: unknown): boolean {
  const e = err as { message?: string; code?: unknown; api_error?: { err_code?: number; description?: string } };
  return /maximum (bytes|messages) exceeded|resource limits exceeded/i.test(
    `${e?.message ?? ''} ${e?.api_error?.description ?? ''}`,
  );
}

/** The 503 a publisher answers when the stream is full: retryable, and it says so. */
export function streamFull(err: unknown): AppError {
  return new AppError('unavailable', 'the event store is full; nothing was stored, try again later', undefined, {
    cause: err,
    retryAfterS: 30,
  });
}

/** The stream and subject prefix behind a KV bucket. */
export function kvStream(spec: KvBucketSpec): { stream: string; prefix: string } {
  return { stream: `KV_${spec.bucket}`, prefix: `$KV.${spec.bucket}.` };
}

/**
 * Creates a KV bucket with the settings the NATS KV clients give one; its owner (`own`, the default)
 * also updates an existing one to these settings, any other service only creates it when missing.
 */
export async function ensureKvBucket(
  jsm: JetStreamManager,
  spec: KvBucketSpec,
  replicas = 1,
  maxBytes = KV_MAX_BYTES_DEFAULT,
  own = true,
): Promise<void> {
  const { stream, prefix } = kvStream(spec);
  await (own ? ensureStream : ensureStreamExists)(jsm, {
    name: stream,
    subjects: [`${prefix}>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(spec.maxAgeMs),
    max_msgs_per_subject: 1,
    max_bytes: maxBytes,
    // Full, the bucket drops its oldest entries: a new key is never refused.
    discard: DiscardPolicy.Old,
    allow_rollup_hdrs: true,
    deny_delete: true,
    allow_direct: true,
    num_replicas: replicas,
    duplicate_window: nanos(Math.min(spec.maxAgeMs, 2 * 60 * 1000)),
  });
}

/**
 * Follows change events with core subscriptions (JetStream-captured subjects reach core subscribers
 * too), for caches: `onEvent` gets each event's subject and JSON body; `reset` runs when a body is
 * not JSON or `onEvent` throws, and after a reconnect (events may have been missed meanwhile);
 * `disconnected`, when given, runs when the connection drops (events are missed until the reconnect).
 * Returns the function that stops following.
 */
export function followChanges(
  nc: NatsConnection,
  subjects: readonly string[],
  onEvent: (subject: string, body: Record<string, unknown>) => void,
  reset: () => void,
  disconnected?: () => void,
): () => void {
  const subs = subjects.map((subject) =>
    nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        try {
          onEvent(msg.subject, msg.json<Record<string, unknown>>());
        } catch {
          reset();
        }
      },
    }),
  );
  let stopped = false;
  (async () => {
    for await (const s of nc.status()) {
      if (stopped) break;
      if (s.type === 'reconnect') reset();
      else if (s.type === 'disconnect') disconnected?.();
    }
  })().catch(() => undefined);
  return () => {
    stopped = true;
    for (const s of subs) s.unsubscribe();
  };
}

export interface NatsHandle {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  close(): Promise<void>;
}

/** NATS_USER and NATS_PASSWORD of a service; no user: the connection is anonymous. */
export interface NatsAuth {
  user?: string;
  password?: string;
}

/**
 * Connects (waiting for a first connection) and keeps reconnecting forever afterwards. `url` is one
 * server or a comma-separated list (the members of a cluster): the client tries them all, at start
 * and after losing its server, besides the members the servers themselves announce. `auth`: the
 * service's NATS user and password, when the servers require them.
 */
export async function connectNats(url: string, logger: Logger, name: string, auth?: NatsAuth): Promise<NatsHandle> {
  const nc = await connect({
    servers: url
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    name,
    ...(auth?.user ? { user: auth.user, pass: auth.password ?? '' } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    timeout: 5000,
    // No stack captured for every request and JetStream publish (a RequestError and a TimeoutError
    // made up front, in case it fails): a few percent of each service's CPU under load. Failures are
    // logged by their message.
    noAsyncTraces: true,
  });
  (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect' || s.type === 'error')
        logger.warn({ nats: s.type }, 'nats connection status');
    }
  })().catch(() => undefined);
  const jsm = await jetstreamManager(nc);
  const js = withTraceContext(jetstream(nc));
  return {
    nc,
    js,
    jsm,
    async close() {
      if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
    },
  };
}

/**
 * Makes every publish of `js` carry the trace context of the caller (a `traceparent` header) when
 * tracing is on, so the consumer's span continues the publisher's trace. Returns `js` itself.
 */
export function withTraceContext(js: JetStreamClient): JetStreamClient {
  const publish = js.publish.bind(js);
  js.publish = (subject, payload, options) =>
    tracedPublish(subject, options?.headers, natsHeaders, (headers) =>
      publish(subject, payload, headers ? { ...options, headers } : options),
    );
  return js;
}

/** The JetStream configuration of a stream of the system. */
export function streamConfig(spec: StreamSpec, replicas = 1, maxBytes = STREAM_MAX_BYTES_DEFAULT): StreamConfigInput {
  return {
    name: spec.name,
    subjects: [...spec.subjects],
    retention: spec.retention,
    storage: StorageType.File,
    max_age: nanos(spec.maxAgeMs),
    max_bytes: maxBytes,
    discard: spec.discard,
    num_replicas: replicas,
    duplicate_window: nanos(2 * 60 * 1000),
  };
}

export type StreamConfigInput = Partial<StreamConfig> & { name: string };

/**
 * Makes the given streams exist. Each stream has one owner (docs/decisions/0015-stream-retention.md):
 * the owner (`own: true`) creates it, updates it to these settings and moves a former stream's
 * unprocessed messages into it; every other service only creates it when it is missing and never
 * changes it, so a replica of another version can never put other settings back.
 */
export async function ensureStreams(
  jsm: JetStreamManager,
  specs: readonly StreamSpec[],
  replicas = 1,
  maxBytes = STREAM_MAX_BYTES_DEFAULT,
  opts: { own?: boolean; logger?: Logger } = {},
): Promise<void> {
  for (const spec of specs) {
    const config = streamConfig(spec, replicas, maxBytes);
    if (!opts.own) {
      await ensureStreamExists(jsm, config);
      continue;
    }
    for (const former of spec.formerNames ?? []) await retireFormerStream(jsm, former);
    await ensureStream(jsm, config);
    for (const former of spec.formerNames ?? []) {
      const moved = await moveFormerStream(jsm, former);
      if (moved !== undefined)
        opts.logger?.info({ from: former, to: spec.name, moved }, 'former stream moved: unprocessed messages copied');
    }
  }
}

/**
 * Creates a stream when it is missing and leaves an existing one as it is. A former stream of the
 * owner's still holding the subjects (before the owner moved it) also leaves it alone: publishes go
 * there until then.
 */
export async function ensureStreamExists(jsm: JetStreamManager, config: StreamConfigInput): Promise<void> {
  await retryRaces(async () => {
    try {
      await jsm.streams.info(config.name);
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await jsm.streams.add(config);
    } catch (err) {
      if (/subjects overlap/i.test((err as Error)?.message ?? '')) return;
      throw err;
    }
  });
}

/** The subject a former stream is moved to, so that its subjects are free for the new stream. */
export const retiredSubject = (former: string) => `switchboard.retired.${former}`;

/**
 * Step one of moving a former stream: its subjects go to a private one (one update, in place), so the
 * new stream can take them. Publishes made between this and the new stream's creation (milliseconds)
 * find no stream and fail, and are retried by their publishers like any NATS hiccup.
 */
async function retireFormerStream(jsm: JetStreamManager, former: string): Promise<void> {
  await retryRaces(async () => {
    let current: StreamConfig;
    try {
      current = (await jsm.streams.info(former)).config;
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const retired = [retiredSubject(former)];
    if (JSON.stringify(current.subjects) !== JSON.stringify(retired))
      await jsm.streams.update(former, { ...current, subjects: retired });
  });
}

/**
 * Step two: copies the former stream's unprocessed messages (those after the lowest acknowledgement
 * floor of its durable consumers; all of them when it has none) to their own subjects, now captured
 * by the new stream, then deletes the former stream. Each copy carries a message id made of the
 * former stream and sequence, so two replicas moving at once, or a move started again after a crash,
 * store each message once (within the duplicate window). Returns how many messages were copied, or
 * undefined when there was no former stream.
 */
export async function moveFormerStream(jsm: JetStreamManager, former: string): Promise<number | undefined> {
  let info: Awaited<ReturnType<JetStreamManager['streams']['info']>>;
  try {
    info = await jsm.streams.info(former);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const consumers = await jsm.consumers.list(former).next();
  const floor = consumers.length ? Math.min(...consumers.map((c) => c.ack_floor.stream_seq)) + 1 : info.state.first_seq;
  const js = jsm.jetstream();
  let moved = 0;
  for (let seq = Math.max(floor, info.state.first_seq); seq <= info.state.last_seq; seq++) {
    const m = await jsm.streams.getMessage(former, { seq }).catch((err: unknown) => {
      if (/no message found|not found/i.test((err as Error)?.message ?? '')) return null;
      throw err;
    });
    if (!m) continue;
    const h = natsHeaders();
    for (const [k, v] of m.header ?? []) if (k !== 'Nats-Msg-Id') for (const x of v) h.append(k, x);
    await js.publish(m.subject, m.data, { msgID: `${former}:${seq}`, headers: h });
    moved++;
  }
  await jsm.streams.delete(former).catch((err: unknown) => {
    if (!isNotFound(err)) throw err;
  });
  return moved;
}

/**
 * Creates a stream, or updates it when its settings differ from `config` (idempotent); for the
 * stream's owner. Every replica of the owner runs this at start, at the same time: a clustered
 * JetStream can leave some of those racing requests unanswered while it assigns the stream, so they
 * are retried. A retention JetStream cannot change in place is an error naming the stream: such a
 * change takes a new name and the former one in `formerNames`.
 */
export async function ensureStream(jsm: JetStreamManager, config: StreamConfigInput): Promise<void> {
  await retryRaces(async () => {
    let current: Partial<StreamConfig>;
    try {
      current = (await jsm.streams.info(config.name)).config;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await jsm.streams.add(config);
      return;
    }
    if (config.retention !== undefined && current.retention !== config.retention)
      throw new Error(
        `stream ${config.name} has retention ${current.retention}, wanted ${config.retention}: JetStream cannot change it in place`,
      );
    if (!sameSettings(current, config)) await jsm.streams.update(config.name, config);
  });
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: unknown; message?: string; api_error?: { err_code?: number } };
  return e?.api_error?.err_code === 10059 || /stream not found/i.test(e?.message ?? '');
}

/** Whether every setting of `wanted` already has that value in `current`. */
function sameSettings(current: object, wanted: object): boolean {
  const c = current as Record<string, unknown>;
  return Object.entries(wanted).every(([k, v]) => v === undefined || JSON.stringify(c[k]) === JSON.stringify(v));
}

/**
 * Runs `f` again (up to 6 times in about 10 s plus the requests' own timeouts) when JetStream
 * did not answer, had no responder yet (a leader being elected), could not place the replicas yet
 * (cluster members still joining) or another process created the same stream or consumer first;
 * any other error is thrown at once.
 */
async function retryRaces(f: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (err) {
      const e = err as { name?: string; message?: string; cause?: { name?: string } };
      const race =
        err instanceof TimeoutError ||
        e?.name === 'TimeoutError' ||
        (err instanceof RequestError && err.isNoResponders()) ||
        /already in use|already exists|no responders|no suitable peers/i.test(e?.message ?? '');
      if (!race || attempt >= 6) throw err;
      await new Promise((r) => setTimeout(r, backoffMs(attempt, { firstMs: 500, maxMs: 2500 })));
    }
  }
}

/** Creates or updates a durable pull consumer with explicit acks. */
export async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  config: Partial<ConsumerConfig> & { durable_name: string },
): Promise<void> {
  const full: Partial<ConsumerConfig> = {
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(30_000),
    max_deliver: -1,
    max_ack_pending: 1000,
    ...config,
  };
  await retryRaces(async () => {
    let current: Partial<ConsumerConfig>;
    try {
      current = (await jsm.consumers.info(stream, config.durable_name)).config;
    } catch (err) {
      const e = err as { message?: string; api_error?: { err_code?: number } };
      if (e?.api_error?.err_code !== 10014 && !/consumer not found/i.test(e?.message ?? '')) throw err;
      await jsm.consumers.add(stream, full);
      return;
    }
    if (!sameSettings(current, full)) await jsm.consumers.update(stream, config.durable_name, full);
  });
}

export interface ConsumerLoopOptions {
  js: JetStreamClient;
  stream: string;
  durable: string;
  logger: Logger;
  /** Messages processed at the same time. */
  concurrency: number;
  /** Processes one message and acks/naks/terms it itself. A throw naks with a delay growing with the deliveries (1 s to 30 s). */
  handle(msg: JsMsg): Promise<void>;
}

export interface ConsumerLoop {
  stop(): Promise<void>;
  /** Resolves once the loop has pulled from the consumer at least once. */
  started: Promise<void>;
}

/**
 * Pulls from a durable consumer forever with bounded concurrency. When the subscription breaks
 * (NATS restart, consumer deleted, heartbeats missed) it re-creates itself after a short pause.
 */
export function runConsumerLoop(opts: ConsumerLoopOptions): ConsumerLoop {
  let stopped = false;
  // biome-ignore lint/suspicious/noConfusingVoidType: the type of close() on a JetStream consumer's messages
  let current: { stop(): void; close(): Promise<void | Error> } | undefined;
  const inflight = new Set<Promise<void>>();
  // Woken when a message finishes while the loop waits for a free slot (one waiter: the loop).
  // Promise.race over the in-flight set would add a reaction to every pending handler per message.
  let slotFreed: (() => void) | undefined;
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((r) => (markStarted = r));

  const loop = async () => {
    while (!stopped) {
      try {
        const consumer = await opts.js.consumers.get(opts.stream, opts.durable);
        // Heartbeats every second: the server answering our pull requests (the consumer's leader
        // in a cluster) is known lost after 2 s. The client library would then wait for the
        // consumer's info and back off for `expires`; re-creating the subscription at once instead
        // pulls from the newly elected leader as soon as there is one.
        const messages = await consumer.consume({
          max_messages: Math.max(opts.concurrency * 2, 10),
          idle_heartbeat: 1000,
          expires: 10_000,
        });
        current = messages;
        (async () => {
          for await (const s of messages.status()) {
            if (s.type === 'heartbeats_missed') {
              opts.logger.warn({ durable: opts.durable, missed: s.count }, 'consumer heartbeats missed; re-creating');
              messages.stop();
              break;
            }
          }
        })().catch(() => undefined);
        markStarted();
        for await (const msg of messages) {
          const p = tracedConsume(
            msg.subject,
            msg.headers,
            { 'messaging.consumer.group.name': opts.durable, 'messaging.message.id': msg.seq },
            () => opts.handle(msg),
          )
            .catch((err: unknown) => {
              // Growing delays: a message that keeps failing must not come back every second.
              const delay = backoffMs(msg.info.deliveryCount, { firstMs: 1000, maxMs: 30_000 });
              opts.logger.error(
                { err, subject: msg.subject, seq: msg.seq, deliveries: msg.info.deliveryCount, retryInMs: delay },
                'message handler failed; will retry',
              );
              msg.nak(delay);
            })
            .finally(() => {
              inflight.delete(p);
              const wake = slotFreed;
              slotFreed = undefined;
              wake?.();
            });
          inflight.add(p);
          if (inflight.size >= opts.concurrency) await new Promise<void>((r) => (slotFreed = r));
          if (stopped) break;
        }
      } catch (err) {
        if (stopped) break;
        opts.logger.warn({ err: (err as Error)?.message, durable: opts.durable }, 'consumer interrupted; re-creating');
      }
      if (!stopped) await new Promise((r) => setTimeout(r, 500));
    }
  };
  const done = loop();
  return {
    started,
    async stop() {
      stopped = true;
      current?.stop();
      await Promise.allSettled([...inflight]);
      await Promise.race([done, new Promise((r) => setTimeout(r, 2000))]);
    },
  };
}

/** Publishes a JSON body; `msgID` makes JetStream drop duplicates within its window. */
export async function publishJson(js: JetStreamClient, subject: string, body: unknown, msgID?: string): Promise<void> {
  try {
    await js.publish(subject, JSON.stringify(body), msgID ? { msgID } : undefined);
  } catch (err) {
    throw isStreamFull(err) ? streamFull(err) : err;
  }
}

/**
 * Publishes a JSON body until JetStream has it: a refused or failed publish is tried again after a
 * growing delay (100 ms to 5 s) for up to `maxMs`, and the same `msgID` keeps a publish that did get
 * through from being stored twice. For results of work already done (a session's outcome), so that a
 * store or NATS hiccup never makes the work itself run again. Throws the last error after `maxMs`
 * or once `signal` aborts.
 */
export async function publishJsonUntilStored(
  js: JetStreamClient,
  subject: string,
  body: unknown,
  msgID: string,
  opts: { maxMs?: number; signal?: AbortSignal; onRetry?: (err: unknown, attempt: number) => void } = {},
): Promise<void> {
  const payload = JSON.stringify(body);
  const until = Date.now() + (opts.maxMs ?? 10 * 60_000);
  for (let attempt = 1; ; attempt++) {
    try {
      await js.publish(subject, payload, { msgID });
      return;
    } catch (err) {
      const failure = isStreamFull(err) ? streamFull(err) : err;
      if (opts.signal?.aborted || Date.now() >= until) throw failure;
      opts.onRetry?.(failure, attempt);
      await new Promise((r) => setTimeout(r, backoffMs(attempt, { firstMs: 100, maxMs: 5000 })));
    }
  }
}

/**
 * A core NATS request with a JSON body, answered by one member of a queue group. No member
 * listening is `unavailable` (503), no answer within `timeoutMs` is `timeout` (504): `what` names
 * the responders in the message.
 */
export async function requestJson(
  nc: NatsConnection,
  subject: string,
  body: unknown,
  timeoutMs: number,
  what: string,
): Promise<unknown> {
  try {
    const reply = await nc.request(subject, JSON.stringify(body), { timeout: timeoutMs });
    return reply.json();
  } catch (err) {
    if (err instanceof RequestError && err.isNoResponders())
      throw new AppError('unavailable', `no ${what} is running; try again later`, undefined, { cause: err });
    if (err instanceof TimeoutError || (err as Error)?.name === 'TimeoutError')
      throw new AppError('timeout', `no ${what} answered within ${Math.round(timeoutMs / 1000)} s`, undefined, {
        cause: err,
      });
    throw new AppError('unavailable', 'NATS is unavailable; try again later', undefined, { cause: err });
  }
}
