import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { ApplicationSecretSchema } from './secret-entities.ts';

// 64-bit ids travel as decimal strings (JSON and gRPC int64 alike).
const bigint = () => new BigIntType('string');

export interface Account {
  id: string;
  username: string;
  passwordHash: string;
  createdAt: Date;
}

export interface Environment {
  id: string;
  name: string;
  billable: boolean;
}

export interface Application {
  /** Internal, monotonic: gives lists a stable order and cursors. */
  seq: string;
  /** Public, opaque, not guessable. */
  id: string;
  accountId: string;
  name: string;
  voiceUrl: string | null;
  messagingUrl: string | null;
  /** Tried when a session POST to voiceUrl / messagingUrl fails. */
  voiceFallbackUrl: string | null;
  messagingFallbackUrl: string | null;
  environmentId: string;
  apiType: string;
  partition: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A number of the operator's inventory; free while applicationId is null. */
export interface PhoneNumber {
  number: string;
  city: string | null;
  state: string | null;
  country: string | null;
  smsEnabled: boolean;
  applicationId: string | null;
  claimedAt: Date | null;
  createdAt: Date;
}

/** A generated address: a session token or a SIP address, always of one application. */
export interface GeneratedAddress {
  value: string;
  type: 'token' | 'sip';
  applicationId: string;
  channel: string | null;
  createdAt: Date;
}

export interface OutboxEvent {
  id: string;
  /** A UUIDv7, the JetStream message id of the event: unique across databases and time. */
  messageId: string;
  subject: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

export const AccountSchema = new EntitySchema<Account>({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: { type: bigint(), primary: true, autoincrement: true },
    username: { type: 'string', unique: true },
    passwordHash: { type: 'string', fieldName: 'password_hash' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

export const EnvironmentSchema = new EntitySchema<Environment>({
  name: 'Environment',
  tableName: 'environments',
  properties: {
    id: { type: bigint(), primary: true },
    name: { type: 'string' },
    billable: { type: 'boolean' },
  },
});

export const ApplicationSchema = new EntitySchema<Application>({
  name: 'Application',
  tableName: 'applications',
  properties: {
    seq: { type: bigint(), primary: true, autoincrement: true },
    id: { type: 'string', unique: true },
    accountId: { type: bigint(), fieldName: 'account_id' },
    name: { type: 'string' },
    voiceUrl: { type: 'string', fieldName: 'voice_url', nullable: true },
    messagingUrl: { type: 'string', fieldName: 'messaging_url', nullable: true },
    voiceFallbackUrl: { type: 'string', fieldName: 'voice_fallback_url', nullable: true },
    messagingFallbackUrl: { type: 'string', fieldName: 'messaging_fallback_url', nullable: true },
    environmentId: { type: bigint(), fieldName: 'environment_id' },
    apiType: { type: 'string', fieldName: 'api_type' },
    partition: { type: 'string', nullable: true },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
    updatedAt: { type: 'Date', fieldName: 'updated_at', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export const PhoneNumberSchema = new EntitySchema<PhoneNumber>({
  name: 'PhoneNumber',
  tableName: 'numbers',
  properties: {
    number: { type: 'string', primary: true },
    city: { type: 'string', nullable: true },
    state: { type: 'string', nullable: true },
    country: { type: 'string', nullable: true },
    smsEnabled: { type: 'boolean', fieldName: 'sms_enabled' },
    applicationId: { type: 'string', fieldName: 'application_id', nullable: true },
    claimedAt: { type: 'Date', fieldName: 'claimed_at', nullable: true },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

export const GeneratedAddressSchema = new EntitySchema<GeneratedAddress>({
  name: 'GeneratedAddress',
  tableName: 'addresses',
  properties: {
    value: { type: 'string', primary: true },
    type: { type: 'string' },
    applicationId: { type: 'string', fieldName: 'application_id' },
    channel: { type: 'string', nullable: true },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

export const OutboxSchema = new EntitySchema<OutboxEvent>({
  name: 'OutboxEvent',
  tableName: 'outbox',
  properties: {
    id: { type: bigint(), primary: true, autoincrement: true },
    messageId: { type: 'uuid', fieldName: 'message_id' },
    subject: { type: 'string' },
    payload: { type: 'json' },
    createdAt: { type: 'Date', fieldName: 'created_at', onCreate: () => new Date() },
  },
});

/** An entry of the audit log (audit/repository.ts reads them; writes that go through the ORM persist one). */
export interface AuditEventRow {
  id: string;
  accountId: string;
  at: Date;
  actorType: string;
  actorId: string;
  actorName: string | null;
  action: string;
  target: string;
  ip: string;
  requestId: string;
  outcome: string;
}

export const AuditEventSchema = new EntitySchema<AuditEventRow>({
  name: 'AuditEvent',
  tableName: 'audit_events',
  properties: {
    id: { type: bigint(), primary: true, autoincrement: true },
    accountId: { type: bigint(), fieldName: 'account_id' },
    at: { type: 'Date', onCreate: () => new Date() },
    actorType: { type: 'string', fieldName: 'actor_type' },
    actorId: { type: 'string', fieldName: 'actor_id' },
    actorName: { type: 'string', fieldName: 'actor_name', nullable: true },
    action: { type: 'string' },
    target: { type: 'string' },
    ip: { type: 'string' },
    requestId: { type: 'string', fieldName: 'request_id' },
    outcome: { type: 'string' },
  },
});

export const ENTITIES = [
  AccountSchema,
  EnvironmentSchema,
  ApplicationSchema,
  PhoneNumberSchema,
  GeneratedAddressSchema,
  OutboxSchema,
  ApplicationSecretSchema,
  AuditEventSchema,
];
