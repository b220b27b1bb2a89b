// The topology of the system's NATS JetStream: its streams, key-value buckets and subjects, beside the
// schemas of the events that travel on them. @switchboard/messaging creates them (ensureStreams,
// ensureKvBucket) and publishes and consumes on them.
import { DiscardPolicy, RetentionPolicy } from '@nats-io/jetstream';

export interface StreamSpec {
  name: string;
  subjects: string[];
  maxAgeMs: number;
  /**
   * What keeps a message: `workqueue` until its one consumer acknowledges it (finished work holds no
   * space), `limits` until it is older than maxAgeMs or pushed out by newer ones (a replay window).
   */
  retention: RetentionPolicy;
  /**
   * At max_bytes: `new` refuses publishes (only for work queues, where only unfinished work holds
   * space), `old` drops the oldest messages to make room (replay windows: nothing is ever refused).
   */
  discard: DiscardPolicy;
  /**
   * Streams that held these subjects under another name with settings JetStream cannot change in
   * place (retention): at the owner's start their subjects move here and their unprocessed messages
   * are copied over (moveFormerStream), then they are deleted.
   */
  formerNames?: readonly string[];
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Streams of the system. Inbound events (docs/events.md#inbound; with them webhooks.disabled, which
 * the webhooks service publishes and the dispatcher fans out like the others) and internal change events.
 */
export const STREAMS = {
  /**
   * Inbound events, a work queue read by the dispatchers' one durable consumer: an event is kept
   * until it is handled, so only undelivered events hold space (docs/decisions/0015-stream-retention.md).
   */
  events: {
    name: 'SWITCHBOARD_INBOUND',
    subjects: [
      'sessions.new',
      'cdr.created',
      'cdr.rated',
      'sms.dlr',
      'webhooks.disabled',
      'alerts.raised',
      'sessions.status',
      'alerts.triggered',
      'usage.triggered',
    ],
    maxAgeMs: 7 * DAY,
    retention: RetentionPolicy.Workqueue,
    discard: DiscardPolicy.New,
    formerNames: ['SWITCHBOARD_EVENTS'],
  },
  /** Change events: a replay window (core subscribers follow them live; the webhooks service's deletion consumers durably). */
  internal: {
    name: 'SWITCHBOARD_INTERNAL',
    subjects: [
      'applications.deleted',
      'applications.changed',
      'webhooks.changed',
      'addresses.changed',
      'accounts.deleted',
      'launches.refused',
    ],
    maxAgeMs: 7 * DAY,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
  },
  /** What the platform publishes for the telephony core and for operators: a replay window. */
  core: {
    name: 'SWITCHBOARD_CORE',
    subjects: ['sessions.instructions', 'sessions.failed', 'sessions.signal', 'events.dead', 'sessions.ended'],
    maxAgeMs: 7 * DAY,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
  },
} as const satisfies Record<string, StreamSpec>;

/**
 * Key-value buckets (JetStream streams in the KV layout, so `nats kv get` reads them). Entries
 * expire with the bucket's max age (JetStream 2.9 has no per-entry TTL).
 */
export const KV_BUCKETS = {
  /**
   * Sessions this platform started (Session API) or routed (dispatcher) in the last 24 h: the
   * sessions a signal may be queued for (docs/api-rules.md#session-api).
   */
  sessions: { bucket: 'SWITCHBOARD_SESSIONS', maxAgeMs: DAY },
} as const satisfies Record<string, KvBucketSpec>;

export interface KvBucketSpec {
  bucket: string;
  maxAgeMs: number;
}

export const SUBJECTS = {
  sessionNew: 'sessions.new',
  cdrCreated: 'cdr.created',
  cdrRated: 'cdr.rated',
  smsDlr: 'sms.dlr',
  applicationDeleted: 'applications.deleted',
  applicationChanged: 'applications.changed',
  /** An account was deleted (after an applications.deleted for each of its applications). */
  accountDeleted: 'accounts.deleted',
  /**
   * The Session API refused launches of an account (its launch budget): at most one per account and
   * minute, published by the applications service; the webhooks service raises `launch.refused`.
   */
  launchRefused: 'launches.refused',
  webhooksChanged: 'webhooks.changed',
  /** A subscription was disabled (410 Gone, or failing for DELIVERY_DISABLE_AFTER): the webhookDisabled event. */
  webhooksDisabled: 'webhooks.disabled',
  /** An alert raised (the first of its code, application and minute): the alert event. */
  alertRaised: 'alerts.raised',
  /** An alert trigger reached its threshold: the alertTriggered event. */
  alertTriggered: 'alerts.triggered',
  /** A usage trigger reached its threshold: the usageTriggered event. */
  usageTriggered: 'usage.triggered',
  /** A session changed state: the sessionStatus event. */
  sessionStatus: 'sessions.status',
  /** A number, SIP address or token changed owner (claimed, moved or released). */
  addressesChanged: 'addresses.changed',
  /** The application's answer to a session POST. */
  sessionInstructions: 'sessions.instructions',
  /** A session that no attempt could deliver. */
  sessionFailed: 'sessions.failed',
  /** A signal sent to a running session through the Session API. */
  sessionSignal: 'sessions.signal',
  /** The telephony core reports a session's end (docs/events.md#inbound): its sessionStatus `ended`. */
  sessionEnded: 'sessions.ended',
  /**
   * Core NATS only (no stream): API keys revoked, or a password changed, for the gateways to forget
   * what they remember of those credentials. Body: { accountId, keyIds?, allKeys?, username? }.
   */
  credentialsRevoked: 'credentials.revoked',
  /** An inbound event refused for good, with the reason, for operators to inspect and republish. */
  eventDead: 'events.dead',
} as const;
