import { SchemaMigration } from '@switchboard/db';

/**
 * Alerts (docs/api.md#alerts): one row per code, application and minute (a storm folds into its
 * `count`), partitioned by day on `minute` and kept ALERT_RETENTION_DAYS (alerts/keep-alerts.ts);
 * subscriptions may name the alert and sessionStatus events.
 */
export class Migration021Alerts extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      create table alerts (
        seq bigserial not null,
        id uuid not null default gen_random_uuid(),
        account_id bigint not null,
        code text not null,
        severity text not null check (severity in ('error', 'warning')),
        -- '' when the alert is of no application: the folding key has no nulls.
        application_id text not null default '',
        subscription_id text,
        session_id text,
        delivery_id text,
        -- The index (0-based) of the session attempt the alert links to.
        attempt integer,
        message text not null,
        minute timestamptz not null,
        at timestamptz not null,
        last_at timestamptz not null,
        count integer not null default 1,
        primary key (account_id, code, application_id, minute)
      ) partition by range (minute);
      create index alerts_account on alerts (account_id, at desc, seq desc);
      create index alerts_id on alerts (id);
      -- An application's alerts: the list's filter, and their deletion with the application.
      create index alerts_application on alerts (application_id, at desc, seq desc);

      -- When the telephony core reported the session's end (sessions.ended, or its cdr.created): once.
      alter table sessions add column ended_at timestamptz;

      -- The alert and sessionStatus events may be subscribed to.
      alter table subscriptions drop constraint subscriptions_event_check;
      alter table subscriptions
        add constraint subscriptions_event_check
        check (event in ('smsdlr', 'cdrCreated', 'cdrRated', 'webhookDisabled', 'alert', 'sessionStatus'));
    `);
  }
}
