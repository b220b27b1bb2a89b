import type { DeliverySettings } from '../subscriptions/delivery-settings.ts';
import { EntitySchema } from '@mikro-orm/core';

export interface Subscription {
  /** Internal, monotonic: gives lists a stable order and cursors. */
  seq: string;
  /** Public, opaque, not guessable, unique across the service ("wh_" + 24 hex). */
  id: string;
  accountId: string;
  /** Null for account-level subscriptions. */
  applicationId: string | null;
  name: string | null;
  event: string;
  /** Normalised comma-separated list ("call,sms") or "all". */
  resource: string;
  targetUrl: string;
  payload: Record<string, unknown> | null;
  /** Custom headers sent with every delivery; an Authorization value is write-only (never read back through the API). */
  headers: Record<string, string>;
  /** Delivery settings (subscriptions/delivery-settings.ts), their secrets sealed. */
  settings: DeliverySettings;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  // Delivery health (docs/events.md#delivery), kept current as attempt records are stored.
  consecutiveFailures: number;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  disabledReason: string | null;
  /** When the current run of failed attempts began; null after a success (DELIVERY_DISABLE_AFTER). */
  firstFailureAt: Date | null;
}

/** Signing secrets, one row per subscription, kept apart so that reading a subscription never loads them. */
export interface SubscriptionSecret {
  subscriptionId: string;
  secret: string;
  /** The secret before the last rotation, valid until previousExpiresAt. */
  previousSecret: string | null;
  previousExpiresAt: Date | null;
  createdAt: Date;
  rotatedAt: Date | null;
}

export interface Delivery {
  seq: string;
  id: string;
  /** The webhook-id header: the same on every attempt of one message. */
  messageId: string;
  kind: 'session' | 'notification';
  /** Null for session deliveries. */
  subscriptionId: string | null;
  applicationId: string | null;
  accountId: string | null;
  event: string;
  targetUrl: string;
  attempt: number;
  /** Null when no HTTP status was received (timeout, connection error). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  outcome: 'succeeded' | 'retrying' | 'failed' | 'cancelled';
  /** What made the attempt: an event, a test, a resend or a recovery task. */
  trigger: 'event' | 'test' | 'resend' | 'recovery';
  createdAt: Date;
  /** The receiver's answer to a notification: its Content-Type, its first 4 KiB (UTF-8) and whether it was cut. */
  responseContentType: string | null;
  responseExcerpt: string | null;
  responseTruncated: boolean;
}

/** Applications whose deletion was processed: a create racing with the deletion cannot resurrect them. */
export interface DeletedApplication {
  applicationId: string;
  deletedAt: Date;
}

export const SubscriptionSchema = new EntitySchema<Subscription>({
  name: 'Subscription',
  tableName: 'subscriptions',
  properties: {
    seq: { type: 'bigint', primary: true, autoincrement: true },
    id: { type: 'string', unique: true },
    accountId: { type: 'bigint', fieldName: 'account_id' },
    applicationId: { type: 'string', fieldName: 'application_id', nullable: true },
    name: { type: 'string', nullable: true },
    event: { type: 'string' },
    resource: { type: 'string' },
    targetUrl: { type: 'string', fieldName: 'target_url' },
    payload: { type: 'json', nullable: true },
    headers: { type: 'json' },
    settings: { type: 'json' },
    enabled: { type: 'boolean' },
    createdAt: { type: 'Date', fieldName: 'created_at' },
    updatedAt: { type: 'Date', fieldName: 'updated_at' },
    consecutiveFailures: { type: 'integer', fieldName: 'consecutive_failures' },
    lastAttemptAt: { type: 'Date', fieldName: 'last_attempt_at', nullable: true },
    lastStatus: { type: 'integer', fieldName: 'last_status', nullable: true },
    disabledReason: { type: 'string', fieldName: 'disabled_reason', nullable: true },
    firstFailureAt: { type: 'Date', fieldName: 'first_failure_at', nullable: true },
  },
});

export const SubscriptionSecretSchema = new EntitySchema<SubscriptionSecret>({
  name: 'SubscriptionSecret',
  tableName: 'subscription_secrets',
  properties: {
    subscriptionId: { type: 'string', primary: true, fieldName: 'subscription_id' },
    secret: { type: 'string' },
    previousSecret: { type: 'string', fieldName: 'previous_secret', nullable: true },
    previousExpiresAt: { type: 'Date', fieldName: 'previous_expires_at', nullable: true },
    createdAt: { type: 'Date', fieldName: 'created_at' },
    rotatedAt: { type: 'Date', fieldName: 'rotated_at', nullable: true },
  },
});

export const DeliverySchema = new EntitySchema<Delivery>({
  name: 'Delivery',
  tableName: 'deliveries',
  properties: {
    seq: { type: 'bigint', primary: true, autoincrement: true },
    id: { type: 'string', unique: true },
    messageId: { type: 'string', fieldName: 'message_id' },
    kind: { type: 'string' },
    subscriptionId: { type: 'string', fieldName: 'subscription_id', nullable: true },
    applicationId: { type: 'string', fieldName: 'application_id', nullable: true },
    accountId: { type: 'bigint', fieldName: 'account_id', nullable: true },
    event: { type: 'string' },
    targetUrl: { type: 'string', fieldName: 'target_url' },
    attempt: { type: 'integer' },
    statusCode: { type: 'integer', fieldName: 'status_code', nullable: true },
    durationMs: { type: 'integer', fieldName: 'duration_ms' },
    error: { type: 'string', nullable: true },
    outcome: { type: 'string' },
    trigger: { type: 'string' },
    createdAt: { type: 'Date', fieldName: 'created_at' },
    responseContentType: { type: 'string', fieldName: 'response_content_type', nullable: true, lazy: true },
    responseExcerpt: { type: 'string', fieldName: 'response_excerpt', nullable: true, lazy: true },
    responseTruncated: { type: 'boolean', fieldName: 'response_truncated' },
  },
});

export const DeletedApplicationSchema = new EntitySchema<DeletedApplication>({
  name: 'DeletedApplication',
  tableName: 'deleted_applications',
  properties: {
    applicationId: { type: 'string', primary: true, fieldName: 'application_id' },
    deletedAt: { type: 'Date', fieldName: 'deleted_at' },
  },
});

/** An alert trigger (docs/api.md#alert-triggers), with its firing state. */
export interface AlertTrigger {
  /** Given by the database. */
  seq?: string;
  /** "at_" + 24 hex. */
  id: string;
  accountId: string;
  /** An alert code, or "*". */
  code: string;
  /** Null: every application of the account. */
  applicationId: string | null;
  threshold: number;
  windowSeconds: number;
  createdAt: Date;
  /** The time of the alert that last reached the threshold; null: never fired. */
  firedAt: Date | null;
  firedCount: number;
}

/** A usage trigger (docs/api.md#usage-triggers), with its firing state. */
export interface UsageTrigger {
  /** Given by the database. */
  seq?: string;
  /** "ut_" + 24 hex. */
  id: string;
  accountId: string;
  category: string;
  threshold: string;
  recurring: 'none' | 'daily' | 'monthly';
  createdAt: Date;
  /** recurring none: the usage of its creation day before it was created. */
  baseline: string;
  // Its firing state (fired_period, fired_at) is read and written by triggers/repository.ts only.
}

export const AlertTriggerSchema = new EntitySchema<AlertTrigger>({
  name: 'AlertTrigger',
  tableName: 'alert_triggers',
  properties: {
    seq: { type: 'bigint', primary: true, autoincrement: true },
    id: { type: 'string', unique: true },
    accountId: { type: 'bigint', fieldName: 'account_id' },
    code: { type: 'string' },
    applicationId: { type: 'string', fieldName: 'application_id', nullable: true },
    threshold: { type: 'integer' },
    windowSeconds: { type: 'integer', fieldName: 'window_seconds' },
    createdAt: { type: 'Date', fieldName: 'created_at' },
    firedAt: { type: 'Date', fieldName: 'fired_at', nullable: true },
    firedCount: { type: 'integer', fieldName: 'fired_count' },
  },
});

export const UsageTriggerSchema = new EntitySchema<UsageTrigger>({
  name: 'UsageTrigger',
  tableName: 'usage_triggers',
  properties: {
    seq: { type: 'bigint', primary: true, autoincrement: true },
    id: { type: 'string', unique: true },
    accountId: { type: 'bigint', fieldName: 'account_id' },
    category: { type: 'string' },
    threshold: { type: 'bigint' },
    recurring: { type: 'string' },
    createdAt: { type: 'Date', fieldName: 'created_at' },
    baseline: { type: 'bigint' },
  },
});

export const ENTITIES = [
  SubscriptionSchema,
  SubscriptionSecretSchema,
  DeliverySchema,
  DeletedApplicationSchema,
  AlertTriggerSchema,
  UsageTriggerSchema,
];
