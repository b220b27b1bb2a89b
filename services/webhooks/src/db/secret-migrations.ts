// Migrations that write sealed secrets: initOrm (@switchboard/db) hands them the service's SECRETS_KEY.
import { SecretsMigration } from '@switchboard/db';

// Frozen copies of what subscriptions/rules.ts did when these were written: a migration means the same
// thing forever. A header value is sealed for its own field (subscription id, ":header:", lower-case name).
const headerOwner = (subscriptionId: string, name: string) => `${subscriptionId}:header:${name.toLowerCase()}`;
const isSealed = (value: string) => value.startsWith('enc:v1:');

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

/**
 * Seals every custom header value for its own field (subscription and header name as associated
 * data): values stored in plaintext, and Authorization values sealed for the whole subscription.
 */
export class Migration013SealHeaders extends SecretsMigration {
  override async up(): Promise<void> {
    const rows = await this.query<{ id: string; headers: string }>(
      `select id, headers::text as headers from ${this.table('subscriptions')} where headers::text <> '{}' for update`,
    );
    for (const row of rows) {
      const headers = JSON.parse(row.headers) as Record<string, string>;
      const box = this.requireBox('the custom headers of subscriptions');
      let changed = false;
      const sealed = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => {
          if (isSealed(value)) {
            try {
              box.open(value, headerOwner(row.id, name));
              return [name, value];
            } catch {
              // sealed for the subscription, not the field: sealed again below
            }
          }
          changed = true;
          // Only Authorization values were sealed for the whole subscription; the others were plaintext.
          const owner = name.toLowerCase() === 'authorization' ? row.id : headerOwner(row.id, name);
          const plain = isSealed(value) ? box.open(value, owner) : value;
          return [name, box.seal(plain, headerOwner(row.id, name))];
        }),
      );
      if (changed)
        await this.query(`update ${this.table('subscriptions')} set headers = $1::json where id = $2`, [
          JSON.stringify(sealed),
          row.id,
        ]);
    }
  }
}
