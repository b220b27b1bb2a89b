// Applies the migrations of this service's schema and exits (a release Job runs this once).
import { createLogger } from '@switchboard/platform';
import { loadConfig } from './config';
import { initOrm, migrate } from './db/orm';

const config = loadConfig();
const logger = createLogger('webhooks-migrate', config.LOG_LEVEL);
const orm = await initOrm({ databaseUrl: config.DATABASE_URL, schema: config.DB_SCHEMA, poolMax: 2, logger, secrets: config.SECRETS_KEY });
try {
  await migrate(orm, config.DB_SCHEMA, logger);
  logger.info('migrations up to date');
} finally {
  await orm.close(true);
}
