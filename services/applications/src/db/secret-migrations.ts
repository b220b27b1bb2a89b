// Migrations that write sealed secrets: initOrm (@switchboard/db) hands them the service's SECRETS_KEY.
import { randomBytes } from 'node:crypto';
import { SecretsMigration } from '@switchboard/db';

/** A signing secret in the form the service issued when this was written: frozen here. */
const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Every application created before session secrets existed gets its own, sealed. */
export class Migration004SessionSecrets extends SecretsMigration {
  override async up(): Promise<void> {
    const missing = await this.query<{ id: string }>(
      `select a.id from ${this.table('applications')} a left join ${this.table('application_secrets')} s on s.application_id = a.id where s.application_id is null`,
    );
    if (missing.length > 0) {
      const box = this.requireBox('the session secrets of existing applications');
      for (const { id } of missing) {
        await this.query(`insert into ${this.table('application_secrets')} (application_id, secret) values ($1, $2)`, [
          id,
          box.seal(newSigningSecret(), id),
        ]);
      }
    }
    await this.sealPlaintext('application_secrets', 'application_id', ['secret', 'previous_secret']);
  }
}
