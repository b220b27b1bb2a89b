// Migrations of the webhooks schema, in order. Each runs in a transaction; never edit one that
// has shipped: add a new one.
import { SchemaMigration } from '@switchboard/orm';
import { Migration003SealSecrets } from './secret-migrations';

export class Migration001Initial extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table subscriptions (
        seq bigserial primary key,
        id text not null unique,
        account_id bigint not null,
        application_id text,
        name text,
        event text not null check (event in ('smsdlr', 'cdrCreated', 'cdrRated')),
        resource text not null,
        target_url text not null,
        -- json, not jsonb: the payload reads back with the key order the client sent.
        payload json,
        enabled boolean not null default true,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        consecutive_failures integer not null default 0,
        last_attempt_at timestamptz,
        last_status integer,
        disabled_reason text
      );
      create index subscriptions_account_level on subscriptions (account_id, seq) where application_id is null;
      create index subscriptions_application on subscriptions (application_id, seq) where application_id is not null;
      create index subscriptions_match on subscriptions (account_id, event) where enabled;

      create table subscription_secrets (
        subscription_id text primary key references subscriptions (id) on delete cascade,
        secret text not null,
        previous_secret text,
        previous_expires_at timestamptz,
        created_at timestamptz not null default now(),
        rotated_at timestamptz
      );

      create table deliveries (
        seq bigserial primary key,
        id text not null unique,
        message_id text not null,
        kind text not null check (kind in ('session', 'notification')),
        subscription_id text,
        application_id text,
        account_id bigint,
        event text not null,
        target_url text not null,
        attempt integer not null,
        status_code integer,
        duration_ms integer not null,
        error text,
        outcome text not null check (outcome in ('succeeded', 'retrying', 'failed')),
        created_at timestamptz not null default now()
      );
      -- One row per attempt of a message to a target: a retried RecordAttempts call is a no-op.
      create unique index deliveries_attempt on deliveries (message_id, coalesce(subscription_id, ''), attempt);
      create index deliveries_subscription on deliveries (subscription_id, seq) where subscription_id is not null;
      create index deliveries_application_sessions on deliveries (application_id, seq) where kind = 'session';
      create index deliveries_created on deliveries (created_at);

      create table deleted_applications (
        application_id text primary key,
        deleted_at timestamptz not null default now()
      );
    `);
  }
}

/** A retry that is not made because its subscription was disabled or no longer matches is recorded as `cancelled`. */
export class Migration002CancelledOutcome extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table deliveries drop constraint deliveries_outcome_check,
        add constraint deliveries_outcome_check check (outcome in ('succeeded', 'retrying', 'failed', 'cancelled'));
    `);
  }
}

export const MIGRATIONS = [
  { name: 'Migration001Initial', class: Migration001Initial },
  { name: 'Migration002CancelledOutcome', class: Migration002CancelledOutcome },
  // Needs SECRETS_KEY: initOrm hands it the service's key.
  { name: 'Migration003SealSecrets', class: Migration003SealSecrets },
];
