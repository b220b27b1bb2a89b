// Migrations of the applications schema, in order. Each runs in a transaction; never edit one
// that has shipped: add a new one.
import { SchemaMigration } from '@switchboard/db';
import { Migration004SessionSecrets } from './secret-migrations.ts';
import { Migration007Credentials } from './credential-migrations.ts';

export class Migration001Initial extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table accounts (
        id bigserial primary key,
        username text not null unique,
        password_hash text not null,
        created_at timestamptz not null default now()
      );
      create table environments (
        id bigint primary key,
        name text not null unique,
        billable boolean not null
      );
      insert into environments (id, name, billable) values (1, 'Production', true), (2, 'Development', false);
      create table applications (
        seq bigserial primary key,
        id text not null unique,
        account_id bigint not null references accounts (id) on delete cascade,
        name text not null,
        voice_url text,
        messaging_url text,
        environment_id bigint not null references environments (id),
        api_type text not null check (api_type in ('scripting', 'webapi')),
        partition text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint applications_has_url check (voice_url is not null or messaging_url is not null)
      );
      create index applications_account_seq on applications (account_id, seq);
      create table outbox (
        id bigserial primary key,
        subject text not null,
        payload jsonb not null,
        created_at timestamptz not null default now()
      );
    `);
  }
}

/**
 * Outbox rows get a message id that is unique forever (a UUIDv7), used as the JetStream message id:
 * the row id restarts at 1 in a recreated database, and JetStream would drop those events as
 * duplicates of earlier ones inside its duplicate window. Existing rows get one made from their
 * created_at; uuid_v7() is also the column's default, for rows written without one.
 */
export class Migration002OutboxMessageId extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create function uuid_v7(at timestamptz default clock_timestamp()) returns uuid
      language sql volatile as $fn$
        with t as (select lpad(to_hex(floor(extract(epoch from at) * 1000)::bigint), 12, '0') as ms)
        select (substr(t.ms, 1, 8) || '-' || substr(t.ms, 9, 4) || '-7' || substr(gen_random_uuid()::text, 16))::uuid from t
      $fn$;
      alter table outbox add column message_id uuid;
      update outbox set message_id = uuid_v7(created_at);
      alter table outbox alter column message_id set not null, alter column message_id set default uuid_v7();
      alter table outbox add constraint outbox_message_id_unique unique (message_id);
    `);
  }
}

/**
 * Fallback URLs, and the table of session signing secrets (sealed with SECRETS_KEY: the checks refuse
 * a plaintext). The foreign key is checked at commit, so an application and its secret are inserted
 * in one flush in any order.
 */
export class Migration003FallbackUrlsAndSecrets extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table applications add column voice_fallback_url text, add column messaging_fallback_url text;
      create table application_secrets (
        application_id text primary key references applications (id) on delete cascade deferrable initially deferred,
        secret text not null check (secret like 'enc:v1:%'),
        previous_secret text check (previous_secret like 'enc:v1:%'),
        previous_expires_at timestamptz,
        created_at timestamptz not null default now(),
        rotated_at timestamptz
      );
    `);
  }
}

/**
 * Addresses. `numbers` is the operator's inventory: a number with no application_id is free, and
 * deleting its application frees it (set null). `addresses` holds the generated ones (session
 * tokens, SIP addresses), which go with their application. A number or SIP address is its own
 * primary key, so it belongs to at most one application across the platform.
 */
export class Migration005Addresses extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table numbers (
        number text collate "C" primary key check (number ~ '^\\+[1-9][0-9]{6,14}$'),
        city text,
        state text,
        country text,
        sms_enabled boolean not null default false,
        application_id text references applications (id) on delete set null,
        claimed_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index numbers_free on numbers (number) where application_id is null;
      create index numbers_application on numbers (application_id) where application_id is not null;
      create table addresses (
        value text collate "C" primary key,
        type text not null check (type in ('token', 'sip')),
        application_id text not null references applications (id) on delete cascade,
        channel text check (channel in ('voice', 'messaging')),
        created_at timestamptz not null default now(),
        constraint addresses_token_channel check ((type = 'token') = (channel is not null))
      );
      create index addresses_application on addresses (application_id);
    `);
  }
}

/** The answers of POSTs sent with an Idempotency-Key (kept 24 h; packages/db/src/idempotency.ts). */
export class Migration006IdempotencyKeys extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table idempotency_keys (
        account_id bigint not null,
        key text not null,
        -- sha256 of the request's method, path and canonical body.
        request_hash text not null,
        -- The RPC that answered.
        method text not null,
        -- The RPC's answer as JSON ({"answer": ...}); null while the first request is still running.
        response jsonb,
        created_at timestamptz not null default now(),
        completed_at timestamptz,
        primary key (account_id, key)
      );
      create index idempotency_keys_created on idempotency_keys (created_at);
    `);
  }
}

/**
 * Per-tenant limits: each account's budget of session launches (sessions/launch-budget.ts), and the
 * index the per-account cap of idempotency keys walks.
 */
export class Migration008TenantLimits extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table session_launch_budgets (
        account_id bigint primary key references accounts (id) on delete cascade,
        -- Launches left (fractional: refilled continuously) as of updated_at.
        tokens double precision not null,
        -- Whether the last launch got one.
        granted boolean not null,
        updated_at timestamptz not null
      );
      create index if not exists idempotency_keys_account_created on idempotency_keys (account_id, created_at desc);
    `);
  }
}

/**
 * The lockout of a username after failed logins, counted here for every gateway replica: one row per
 * account that failed lately (bounded by the accounts; gone with the account, reset by a success).
 */
export class Migration010LoginLockouts extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table login_lockouts (
        account_id bigint primary key references accounts (id) on delete cascade,
        failures integer not null,
        locked_until timestamptz
      );
    `);
  }
}

/**
 * Session tokens are credentials: the audit entries of their claims, moves and releases recorded
 * before targets were masked get the masked target (`.../addresses/token/***`) too.
 */
export class Migration009MaskTokenAuditTargets extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      update audit_events set target = regexp_replace(target, '/addresses/token/[^/]+$', '/addresses/token/***')
      where action in ('address.claim', 'address.move', 'address.release')
        and target like '%/addresses/token/%' and target not like '%/addresses/token/***';
    `);
  }
}

export const MIGRATIONS = [
  { name: 'Migration001Initial', class: Migration001Initial },
  { name: 'Migration002OutboxMessageId', class: Migration002OutboxMessageId },
  { name: 'Migration003FallbackUrlsAndSecrets', class: Migration003FallbackUrlsAndSecrets },
  // Needs SECRETS_KEY: initOrm hands it the service's key.
  { name: 'Migration004SessionSecrets', class: Migration004SessionSecrets },
  { name: 'Migration005Addresses', class: Migration005Addresses },
  { name: 'Migration006IdempotencyKeys', class: Migration006IdempotencyKeys },
  { name: 'Migration007Credentials', class: Migration007Credentials },
  { name: 'Migration008TenantLimits', class: Migration008TenantLimits },
  { name: 'Migration009MaskTokenAuditTargets', class: Migration009MaskTokenAuditTargets },
  { name: 'Migration010LoginLockouts', class: Migration010LoginLockouts },
];
