import { SchemaMigration } from '@switchboard/db';

/**
 * The remaining alert sources and status callbacks: an alert of a subscription (webhook.failing,
 * webhook.disabled, delivery.backlog_full) folds per subscription and minute, so the folding key
 * takes `subscription_key` (the subscription's id, '' for the others); a session launched with a
 * statusCallbackUrl keeps it, for the events of its signals and its end.
 */
export class Migration024AlertSources extends SchemaMigration {
  override async up(): Promise<void> {
    this.useSchema();
    this.addSql(`
      alter table alerts add column subscription_key text not null default '';
      alter table alerts drop constraint alerts_pkey;
      alter table alerts add primary key (account_id, code, application_id, subscription_key, minute);

      alter table sessions add column status_callback_url text;
    `);
  }
}
