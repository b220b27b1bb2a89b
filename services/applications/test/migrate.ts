// The applications service's migrations run on a test database the way the service and the release
// Job run them (the migration tests).
import { initOrm, migrate } from '@switchboard/db';
import { createLogger } from '@switchboard/observability';
import type { SecretBox } from '@switchboard/security';
import { SCHEMA } from '../src/db/schema';

/** Migrates the database at `databaseUrl` to the latest schema, with SECRETS_KEY `secrets` when given. */
export async function migrateApplications(databaseUrl: string, secrets?: SecretBox): Promise<void> {
  const logger = createLogger('test', 'silent');
  const orm = await initOrm({ ...SCHEMA, databaseUrl, schema: 'applications', poolMax: 2, logger, secrets });
  try {
    await migrate(orm, 'applications', logger);
  } finally {
    await orm.close(true);
  }
}
