// Migrations that write sealed secrets, so they run with the service's SECRETS_KEY (see orm.ts).
import { SecretsMigration, withSecretsKey } from '@switchboard/orm';
import type { SecretBox } from '@switchboard/platform';

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

export function secretMigrations(box: SecretBox | undefined) {
  return withSecretsKey([{ name: 'Migration003SealSecrets', class: Migration003SealSecrets }], box);
}
