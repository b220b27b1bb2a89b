import { SchemaMigration } from '@switchboard/db';

/**
 * Alert triggers, usage and usage triggers (docs/api.md#alert-triggers, #usage, #usage-triggers):
 * - `alert_triggers` (at most 50 per account) and `usage_triggers` (at most 100), each with its
 *   firing state in its own row, deleted with their account (alert triggers of an application
 *   with it);
 * - `usage_rollups`: per account, application ('' for none), category and UTC day, written in the
 *   transaction that stores what they count (session records, alerts, notification attempts),
 *   kept USAGE_RETENTION_DAYS; filled here from the records kept;
 * - subscriptions may name the alertTriggered and usageTriggered events.
 */
export class Migration025Triggers extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table alert_triggers (
        seq bigserial primary key,
        id text not null unique,
        account_id bigint not null,
        -- An alert code, or '*' for every code.
        code text not null,
        -- Null: every application of the account.
        application_id text,
        threshold integer not null check (threshold >= 1),
        window_seconds integer not null check (window_seconds between 60 and 86400),
        created_at timestamptz not null default now(),
        -- Firing state: the time of the alert that last reached the threshold, and how often it fired.
        fired_at timestamptz,
        fired_count integer not null default 0
      );
      create index alert_triggers_account on alert_triggers (account_id, seq);
      create index alert_triggers_application on alert_triggers (application_id) where application_id is not null;

      create table usage_triggers (
        seq bigserial primary key,
        id text not null unique,
        account_id bigint not null,
        category text not null,
        threshold bigint not null check (threshold >= 1),
        recurring text not null check (recurring in ('none', 'daily', 'monthly')),
        created_at timestamptz not null default now(),
        -- recurring 'none': the usage of its creation day before it was created, left out of its count.
        baseline bigint not null default 0,
        -- Firing state: the start of the period it last fired in (a UTC day or month; the creation
        -- day for 'none'), and when.
        fired_period date,
        fired_at timestamptz
      );
      create index usage_triggers_account on usage_triggers (account_id, seq);

      create table usage_rollups (
        account_id bigint not null,
        -- '' when of no application.
        application_id text not null default '',
        category text not null,
        day date not null,
        count bigint not null,
        primary key (account_id, category, day, application_id)
      );
      create index usage_rollups_day on usage_rollups (day);

      -- What is kept already counts: sessions (by channel, launches), alerts, notification attempts made.
      insert into usage_rollups (account_id, application_id, category, day, count)
      select account_id, coalesce(application_id, ''), c.category, (started_at at time zone 'UTC')::date, count(*)
      from sessions s
      cross join lateral (values ('sessions'), (case when channel = 'VOICE' then 'sessions.voice' else 'sessions.text' end),
        (case when routed_by_type = 'token' then 'launches' end)) as c(category)
      where c.category is not null
      group by 1, 2, 3, 4;
      insert into usage_rollups (account_id, application_id, category, day, count)
      select account_id, application_id, 'alerts', (minute at time zone 'UTC')::date, sum(count)
      from alerts group by 1, 2, 3, 4;
      insert into usage_rollups (account_id, application_id, category, day, count)
      select account_id, coalesce(application_id, ''), c.category, (created_at at time zone 'UTC')::date, count(*)
      from deliveries d
      cross join lateral (values ('notifications'), (case when outcome = 'failed' then 'notifications.failed' end)) as c(category)
      where kind = 'notification' and outcome <> 'cancelled' and account_id is not null and c.category is not null
      group by 1, 2, 3, 4;

      alter table subscriptions drop constraint subscriptions_event_check;
      alter table subscriptions
        add constraint subscriptions_event_check
        check (event in ('smsdlr', 'cdrCreated', 'cdrRated', 'webhookDisabled', 'alert', 'sessionStatus',
          'alertTriggered', 'usageTriggered'));
    `);
  }
}
