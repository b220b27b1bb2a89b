// The applications service's migrations run on a test database the way the service and the release
// Job run them (the migration tests).
import type { SecretBox } from '@switchboard/security';
import { openMigratedOrm } from '../../../test/support';
import { SCHEMA } from '../src/db/schema';

/** Migrates the database at `databaseUrl` to the latest schema, with SECRETS_KEY `secrets` when given. */
export async function migrateApplications(databaseUrl: string, secrets?: SecretBox): Promise<void> {
  const orm = await openMigratedOrm(databaseUrl, { ...SCHEMA, schema: 'applications', poolMax: 2, secrets });
  await orm.close(true);
}
