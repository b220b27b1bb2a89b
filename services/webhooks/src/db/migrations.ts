// Migrations of the webhooks schema, in order. Each runs in a transaction; never edit one that
// has shipped: add a new one.
import { SchemaMigration } from '@switchboard/db';
import { Migration010DeflateBodies } from './body-migrations.ts';
import { Migration003SealSecrets, Migration013SealHeaders } from './secret-migrations.ts';
import { Migration021Alerts } from './alert-migrations.ts';
import { Migration024AlertSources } from './source-migrations.ts';
import { Migration025Triggers } from './trigger-migrations.ts';

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

/** The answers of POSTs sent with an Idempotency-Key (kept 24 h; packages/db/src/idempotency.ts). */
export class Migration004IdempotencyKeys extends SchemaMigration {
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

/** Custom headers sent with every delivery of a subscription ({name: value}, at most 10). */
export class Migration005SubscriptionHeaders extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    // json, not jsonb: headers read back in the order the client sent them.
    this.addSql(`alter table subscriptions add column headers json not null default '{}'`);
  }
}

/**
 * Tools for operating an endpoint (docs/events.md#operating-your-endpoints): what made each attempt,
 * the bodies kept for resends (compressed), queued resends and recovery tasks, and the test sends
 * the per-subscription rate limit counts.
 */
export class Migration006DeliveryTools extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table deliveries add column trigger text not null default 'event'
        check (trigger in ('event', 'test', 'resend', 'recovery'));
      -- Attempts made for an event are unique per message, target and number; tests and resends
      -- carry an id given in advance instead (deliveries.id is unique).
      drop index deliveries_attempt;
      create unique index deliveries_attempt on deliveries (message_id, coalesce(subscription_id, ''), attempt) where trigger = 'event';
      create index deliveries_message on deliveries (message_id);

      -- The body of a message as it was first sent, compressed; kept as long as its records.
      create table delivery_bodies (
        message_id text not null,
        -- The subscription id of a notification, the application id of a session.
        target text not null,
        body bytea not null,
        -- Length of the uncompressed body in bytes.
        size integer not null,
        created_at timestamptz not null default now(),
        primary key (message_id, target)
      );
      create index delivery_bodies_created on delivery_bodies (created_at);

      create table recovery_tasks (
        id text primary key,
        subscription_id text not null references subscriptions (id) on delete cascade,
        account_id bigint not null,
        since timestamptz not null,
        until timestamptz not null,
        total integer not null,
        sent integer not null default 0,
        failed integer not null default 0,
        skipped integer not null default 0,
        created_at timestamptz not null default now(),
        completed_at timestamptz
      );

      -- A resend waiting to be handed to the dispatchers (published_at null), then until attempted.
      -- Its id is the id of the attempt the dispatcher records.
      create table resends (
        id text primary key,
        task_id text references recovery_tasks (id) on delete cascade,
        kind text not null check (kind in ('session', 'notification')),
        subscription_id text references subscriptions (id) on delete cascade,
        application_id text,
        account_id bigint not null,
        message_id text not null,
        -- The event name its records carry.
        event text not null,
        -- seq of the message's first record: recoveries send in the original order.
        original_seq bigint not null,
        trigger text not null check (trigger in ('resend', 'recovery')),
        created_at timestamptz not null default now(),
        published_at timestamptz
      );
      create index resends_unpublished on resends (created_at, original_seq) where published_at is null;

      create table test_sends (
        subscription_id text not null references subscriptions (id) on delete cascade,
        sent_at timestamptz not null default now()
      );
      create index test_sends_subscription on test_sends (subscription_id, sent_at);
    `);
  }
}

/**
 * The webhookDisabled event: subscriptions may name it; `first_failure_at` is when the current run
 * of failed attempts began (null after a success), so a subscription failing for
 * DELIVERY_DISABLE_AFTER is disabled; the outbox carries webhooks.disabled events to JetStream.
 * Subscriptions failing now count from their last attempt.
 */
export class Migration007WebhookDisabled extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table subscriptions drop constraint subscriptions_event_check,
        add constraint subscriptions_event_check check (event in ('smsdlr', 'cdrCreated', 'cdrRated', 'webhookDisabled'));
      alter table subscriptions add column first_failure_at timestamptz;
      update subscriptions set first_failure_at = coalesce(last_attempt_at, now()) where consecutive_failures > 0;
      create table outbox (
        id bigserial primary key,
        message_id uuid not null unique,
        subject text not null,
        payload jsonb not null,
        created_at timestamptz not null default now()
      );
    `);
  }
}

/**
 * Deletions that return at once: a deleted subscription's (or application's session) delivery
 * records are queued in delivery_purges and deleted in batches in the background
 * (deliveries/sweep-deliveries.ts), with the bodies kept for their resends. deleted_accounts keeps a create racing with an account's
 * deletion from adding a subscription to it.
 */
export class Migration008BackgroundPurges extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table delivery_purges (
        seq bigserial primary key,
        subscription_id text,
        application_id text,
        created_at timestamptz not null default now(),
        constraint delivery_purges_one_owner check ((subscription_id is null) <> (application_id is null))
      );
      create table deleted_accounts (
        account_id bigint primary key,
        deleted_at timestamptz not null default now()
      );
      -- The sweep deletes a gone subscription's (or application's) kept bodies too.
      create index delivery_bodies_target on delivery_bodies (target);
    `);
  }
}

/**
 * Kept bodies are compressed with DEFLATE from now on (deliveries/bodies.ts); the rows already kept
 * are brotli, and say so.
 */
export class Migration009BodyEncoding extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table delivery_bodies add column encoding text not null default 'br';
      alter table delivery_bodies alter column encoding drop default;
      alter table delivery_bodies add constraint delivery_bodies_encoding check (encoding in ('br', 'deflate'));
    `);
  }
}

/**
 * Limits of the delivery tools (tools/account-tool-budget.ts, tools/recover-subscription.ts): an
 * account's resends and recoveries of the last hour are counted, a subscription's running recovery
 * is found, and a recovery reads only the records of its window.
 */
export class Migration011ToolLimits extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create index resends_account on resends (account_id, created_at) where trigger = 'resend';
      create index recovery_tasks_account on recovery_tasks (account_id, created_at);
      create index recovery_tasks_running on recovery_tasks (subscription_id) where completed_at is null;
      create index deliveries_subscription_created on deliveries (subscription_id, created_at) where subscription_id is not null;
    `);
  }
}

/** The index the per-account cap of idempotency keys walks. */
export class Migration012IdempotencyByAccount extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(
      'create index if not exists idempotency_keys_account_created on idempotency_keys (account_id, created_at desc);',
    );
  }
}

/**
 * Session records (sessions/): one row per session, partitioned by day on started_at (their daily
 * partitions are made ahead and dropped whole by retention, sessions/keep-sessions.ts); the
 * signals queued for sessions, kept by session id (a signal may come before its session); and
 * per-minute counts of sessions by outcome, written with each session, for the statistics.
 */
export class Migration016SessionRecords extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table sessions (
        seq bigserial not null,
        id text not null,
        started_at timestamptz not null,
        application_id text,
        account_id bigint not null,
        channel text not null check (channel in ('VOICE', 'TEXT')),
        from_id text,
        to_id text,
        routed_by_type text not null check (routed_by_type in ('application', 'address', 'token')),
        routed_by_value text,
        outcome text not null check (outcome in ('answered', 'fallback', 'failed')),
        attempt_count integer not null,
        attempts jsonb not null,
        instructions jsonb,
        failure_reason text,
        primary key (id, started_at)
      ) partition by range (started_at);
      -- An application's sessions newest first, and filtered by outcome, channel or caller.
      create index sessions_application on sessions (application_id, started_at desc, seq desc) where application_id is not null;
      create index sessions_application_outcome on sessions (application_id, outcome, started_at desc, seq desc) where application_id is not null;
      create index sessions_application_channel on sessions (application_id, channel, started_at desc, seq desc) where application_id is not null;
      create index sessions_application_from on sessions (application_id, from_id, started_at desc, seq desc) where application_id is not null and from_id is not null;
      -- A deleted account's sessions that belong to no application (dialled at an address nobody owns).
      create index sessions_account_unrouted on sessions (account_id) where application_id is null;

      create table session_signals (
        -- The signal's sequence in the core stream: a signal delivered twice is stored once.
        seq bigint primary key,
        session_id text not null,
        at timestamptz not null,
        value text not null,
        status text not null
      );
      create index session_signals_session on session_signals (session_id, at);
      create index session_signals_at on session_signals (at);

      create table session_rollups (
        application_id text not null,
        account_id bigint not null,
        minute timestamptz not null,
        answered integer not null default 0,
        fallback integer not null default 0,
        failed integer not null default 0,
        primary key (application_id, minute)
      );
      create index session_rollups_minute on session_rollups (minute);
    `);
  }
}

/**
 * The bounds (ms) of the rollups' latency histogram when this migration was written (the live copy:
 * LATENCY_BOUNDS_MS in deliveries/rollups.ts). Frozen here: a migration means the same thing forever.
 */
const BOUNDS_MS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 15_000, 30_000];

/** The latency histogram of rollups in SQL: one count per bucket of BOUNDS_MS (the last one: above them all). */
const LATENCY_BUCKET_SQL = [...BOUNDS_MS, Number.POSITIVE_INFINITY]
  .map(
    (upper, i) =>
      `(count(*) filter (where outcome <> 'cancelled' and duration_ms ${i === 0 ? '>= 0' : `> ${BOUNDS_MS[i - 1]}`}${Number.isFinite(upper) ? ` and duration_ms <= ${upper}` : ''}))::int`,
  )
  .join(', ');

/**
 * The statement of a migration to partitions (014, 018) that creates the daily partitions of
 * `<table>_by_day`, named `<table>_pYYYYMMDD`, from the day of the oldest row of `table` (today
 * when empty) to `daysAhead` days after today.
 */
function dailyPartitionsOfRowsSql(table: string, daysAhead: number): string {
  return `do $$
      declare d timestamptz;
      begin
        for d in select generate_series(
            date_trunc('day', coalesce((select min(created_at) from ${table}), now()) at time zone 'UTC') at time zone 'UTC',
            date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' + interval '${daysAhead} days',
            interval '1 day')
        loop
          execute format('create table %I partition of ${table}_by_day for values from (%L) to (%L)',
            '${table}_p' || to_char(d at time zone 'UTC', 'YYYYMMDD'), d, d + interval '1 day');
        end loop;
      end $$;`;
}

/**
 * Delivery records go into daily partitions of their created_at (native range partitioning): the
 * partitioned table is created beside the old one, the rows move, the names swap and the indexes
 * are made again. Unique keys include the partition key: an attempt is unique by message, target,
 * number and time (a retried batch carries the same times, so it stays a no-op), a record by id and
 * time. The service creates the partitions of the days to come (deliveries/partitions.ts) and
 * retention drops whole days. Records also keep the receiver's response excerpt now.
 */
export class Migration014PartitionedDeliveries extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter sequence deliveries_seq_seq owned by none;
      create table deliveries_by_day (
        seq bigint not null default nextval('deliveries_seq_seq'),
        id text not null,
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
        outcome text not null check (outcome in ('succeeded', 'retrying', 'failed', 'cancelled')),
        created_at timestamptz not null default now(),
        trigger text not null default 'event' check (trigger in ('event', 'test', 'resend', 'recovery')),
        -- The receiver's answer to a notification: its content type and its first 4 KiB (UTF-8),
        -- and whether it was cut there.
        response_content_type text,
        response_excerpt text,
        response_truncated boolean not null default false
      ) partition by range (created_at);
      ${dailyPartitionsOfRowsSql('deliveries', 2)}
      insert into deliveries_by_day
        (seq, id, message_id, kind, subscription_id, application_id, account_id, event, target_url, attempt,
         status_code, duration_ms, error, outcome, created_at, trigger)
      select seq, id, message_id, kind, subscription_id, application_id, account_id, event, target_url, attempt,
        status_code, duration_ms, error, outcome, created_at, trigger
      from deliveries;
      drop table deliveries;
      alter table deliveries_by_day rename to deliveries;
      alter sequence deliveries_seq_seq owned by deliveries.seq;
      alter table deliveries add constraint deliveries_pkey primary key (seq, created_at);
      alter table deliveries add constraint deliveries_id unique (id, created_at);
      -- One row per attempt of a message to a target (at its time): a retried batch is a no-op.
      create unique index deliveries_attempt on deliveries (message_id, coalesce(subscription_id, ''), attempt, created_at) where trigger = 'event';
      create index deliveries_message on deliveries (message_id);
      create index deliveries_subscription on deliveries (subscription_id, seq) where subscription_id is not null;
      create index deliveries_subscription_created on deliveries (subscription_id, created_at) where subscription_id is not null;
      -- The outcome filter of a subscription's records (failures are few among many successes).
      create index deliveries_subscription_outcome on deliveries (subscription_id, outcome, seq) where subscription_id is not null;
      create index deliveries_application_sessions on deliveries (application_id, seq) where kind = 'session';
    `);
  }
}

/**
 * Rollups of delivery attempts per subscription (notifications) or application (sessions), per
 * minute and per hour: counts by outcome and a fixed latency histogram (deliveries/rollups.ts),
 * written in the transaction that stores the records, read by the statistics (hourly rows for
 * hourly buckets, so a 7-day window reads 168 rows). Filled from the records kept.
 */
export class Migration015DeliveryRollups extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table delivery_rollups (
        -- The subscription id of notifications, the application id of sessions.
        target text not null,
        -- The rollup's width in seconds: 60 (a minute) or 3600 (an hour).
        width integer not null check (width in (60, 3600)),
        start timestamptz not null,
        attempts integer not null,
        succeeded integer not null,
        retrying integer not null,
        failed integer not null,
        cancelled integer not null,
        -- Attempts made (cancelled ones excepted) by duration: counts per bucket of BOUNDS_MS.
        latency integer[] not null,
        primary key (target, width, start)
      );
      create index delivery_rollups_start on delivery_rollups (start);
      insert into delivery_rollups (target, width, start, attempts, succeeded, retrying, failed, cancelled, latency)
      select target, w.width, date_bin(make_interval(secs => w.width), created_at, timestamptz 'epoch'), count(*),
        count(*) filter (where outcome = 'succeeded'), count(*) filter (where outcome = 'retrying'),
        count(*) filter (where outcome = 'failed'), count(*) filter (where outcome = 'cancelled'),
        array[${LATENCY_BUCKET_SQL}]
      from (
        select case when kind = 'notification' then subscription_id else application_id end as target,
          created_at, outcome, duration_ms
        from deliveries
      ) d cross join (values (60), (3600)) as w(width)
      where target is not null
      group by target, w.width, 3;
    `);
  }
}

/**
 * The audit log of the changes this service owns (subscriptions, their secrets, test sends, resends,
 * recoveries), written in each change's transaction; read newest first per account, pruned by age.
 */
export class Migration017AuditEvents extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table audit_events (
        id bigserial primary key,
        account_id bigint not null,
        at timestamptz not null default now(),
        actor_type text not null check (actor_type in ('password', 'key', 'session')),
        actor_id text not null,
        actor_name text,
        action text not null,
        target text not null default '',
        ip text not null default '',
        request_id text not null default '',
        outcome text not null check (outcome in ('success', 'failure'))
      );
      create index audit_events_account on audit_events (account_id, id desc);
      create index audit_events_at on audit_events (at);
    `);
  }
}

/**
 * The `event` filter of the deliveries lists (`?event=`): an index per list, so a filter on an
 * event a subscription's or an application's records rarely or never hold reads a few index
 * entries instead of walking every record of the subscription or application newest first.
 * Made on every daily partition, and on each one made later.
 */
export class Migration018DeliveryEventFilter extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create index deliveries_subscription_event on deliveries (subscription_id, event, seq) where subscription_id is not null;
      create index deliveries_application_event on deliveries (application_id, event, seq) where kind = 'session';
    `);
  }
}

/**
 * A resend is done once its attempt is recorded (or it cannot be sent): the relay keeps at most
 * RESEND_IN_FLIGHT_PER_ACCOUNT of an account's resends published and not done, the rest wait here.
 */
export class Migration019ResendsInFlight extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table resends add column done_at timestamptz;
      update resends set done_at = published_at where published_at is not null;
      create index resends_in_flight on resends (account_id) where published_at is not null and done_at is null;
    `);
  }
}

/**
 * Kept bodies go into daily partitions of their created_at, like the delivery records (migration
 * 014): the partitioned table is created beside the old one, the rows move into their days, the
 * names swap and the keys are made again. A body is unique by message, target and time; the insert
 * keeps a message's first body (deliveries/repository.ts). Retention drops whole days with the
 * records' days (deliveries/partitions.ts) instead of deleting rows one by one.
 */
export class Migration020PartitionedBodies extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table delivery_bodies_by_day (
        message_id text not null,
        -- The subscription id of a notification, the application id of a session.
        target text not null,
        body bytea not null,
        -- Length of the uncompressed body in bytes.
        size integer not null,
        created_at timestamptz not null default now(),
        encoding text not null
      ) partition by range (created_at);
      ${dailyPartitionsOfRowsSql('delivery_bodies', 3)}
      insert into delivery_bodies_by_day (message_id, target, body, size, created_at, encoding)
      select message_id, target, body, size, created_at, encoding from delivery_bodies;
      drop table delivery_bodies;
      alter table delivery_bodies_by_day rename to delivery_bodies;
      alter table delivery_bodies add constraint delivery_bodies_pkey primary key (message_id, target, created_at);
      alter table delivery_bodies add constraint delivery_bodies_encoding check (encoding = 'deflate');
      -- The sweep deletes a gone subscription's (or application's) kept bodies.
      create index delivery_bodies_target on delivery_bodies (target);
    `);
  }
}

/** A subscription's delivery settings (timeout, ordering, rate limit, endpoint authentication), secrets sealed. */
export class Migration022DeliverySettings extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`alter table subscriptions add column settings json not null default '{}'`);
  }
}

/** A recovery can be cancelled (DELETE /v1/webhooks/:id/recoveries/:taskId). */
export class Migration023RecoveryCancel extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql('alter table recovery_tasks add column cancelled_at timestamptz');
  }
}

/** The statistics count deliveries held by their subscription's rate limit (`throttled`). */
export class Migration026RollupThrottled extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql('alter table delivery_rollups add column throttled integer not null default 0');
  }
}

/**
 * A kept notification body records the session it is about (its `data.sessionId`), so that a
 * recovery can take the deliveries of chosen sessions (docs/api.md#delivery-tools). Bodies kept
 * before have none. The index holds only the bodies that name a session and is dropped with their
 * days.
 */
export class Migration027BodySessions extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table delivery_bodies add column session_id text;
      create index delivery_bodies_session on delivery_bodies (target, session_id) where session_id is not null;
    `);
  }
}

/**
 * A resend of a subscription with ordering by key records its key (`order_key`: the hash the
 * dispatchers use, read from the kept body's `data` by the relay, which then sets `keyed`), and the
 * relay hands a key's resends to the dispatchers one at a time, each once the one before it has been
 * attempted (docs/decisions/0022-ordering-by-key.md). Resends queued before are keyed (no key).
 */
export class Migration028ResendKeys extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table resends add column keyed boolean not null default true, add column order_key text;
      alter table resends alter column keyed set default false;
      create index resends_pending_by_subscription on resends (subscription_id, order_key) where done_at is null;
      create index resends_unkeyed on resends (created_at) where not keyed;
    `);
  }
}

export const MIGRATIONS = [
  { name: 'Migration001Initial', class: Migration001Initial },
  { name: 'Migration002CancelledOutcome', class: Migration002CancelledOutcome },
  // Needs SECRETS_KEY: initOrm hands it the service's key.
  { name: 'Migration003SealSecrets', class: Migration003SealSecrets },
  { name: 'Migration004IdempotencyKeys', class: Migration004IdempotencyKeys },
  { name: 'Migration005SubscriptionHeaders', class: Migration005SubscriptionHeaders },
  { name: 'Migration006DeliveryTools', class: Migration006DeliveryTools },
  { name: 'Migration007WebhookDisabled', class: Migration007WebhookDisabled },
  { name: 'Migration008BackgroundPurges', class: Migration008BackgroundPurges },
  { name: 'Migration009BodyEncoding', class: Migration009BodyEncoding },
  { name: 'Migration010DeflateBodies', class: Migration010DeflateBodies },
  { name: 'Migration011ToolLimits', class: Migration011ToolLimits },
  { name: 'Migration012IdempotencyByAccount', class: Migration012IdempotencyByAccount },
  // Needs SECRETS_KEY when subscriptions have custom headers.
  { name: 'Migration013SealHeaders', class: Migration013SealHeaders },
  { name: 'Migration014PartitionedDeliveries', class: Migration014PartitionedDeliveries },
  { name: 'Migration015DeliveryRollups', class: Migration015DeliveryRollups },
  { name: 'Migration016SessionRecords', class: Migration016SessionRecords },
  { name: 'Migration017AuditEvents', class: Migration017AuditEvents },
  { name: 'Migration018DeliveryEventFilter', class: Migration018DeliveryEventFilter },
  { name: 'Migration019ResendsInFlight', class: Migration019ResendsInFlight },
  { name: 'Migration020PartitionedBodies', class: Migration020PartitionedBodies },
  { name: 'Migration021Alerts', class: Migration021Alerts },
  { name: 'Migration022DeliverySettings', class: Migration022DeliverySettings },
  { name: 'Migration023RecoveryCancel', class: Migration023RecoveryCancel },
  { name: 'Migration024AlertSources', class: Migration024AlertSources },
  { name: 'Migration025Triggers', class: Migration025Triggers },
  { name: 'Migration026RollupThrottled', class: Migration026RollupThrottled },
  { name: 'Migration027BodySessions', class: Migration027BodySessions },
  { name: 'Migration028ResendKeys', class: Migration028ResendKeys },
];
