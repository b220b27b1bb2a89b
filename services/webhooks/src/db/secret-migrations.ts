// Migrations that write sealed secrets: initOrm (@switchboard/orm) hands them the service's SECRETS_KEY.
import { SecretsMigration } from '@switchboard/orm';

/**
 * Seals the signing secrets stored in plaintext before SECRETS_KEY existed (current and previous),
 * then lets the table hold sealed values only.
 */
export class Migration003SealSecrets extends SecretsMigration {
  override async up(): Promise<void> {
    await this.sealPlaintext('subscription_secrets', 'subscription_id', ['secret', 'previous_secret']);
    this.addSql(
      `alter table ${this.table('subscription_secrets')}
         add constraint subscription_secrets_sealed check (secret like 'enc:v1:%'),
         add constraint subscription_secrets_previous_sealed check (previous_secret like 'enc:v1:%')`,
    );
  }
}
