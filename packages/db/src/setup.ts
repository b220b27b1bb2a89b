// The MikroORM setup shared by the services that own a Postgres schema (applications, webhooks):
// configuration, start-up that waits for the database, migrations serialised across replicas, the
// base class of those migrations and the body of each service's `src/migrate.ts`. A service only
// lists its entities and migrations (a SchemaDefinition).
import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migration, Migrator } from '@mikro-orm/migrations';
import type { MigrationObject } from '@mikro-orm/core';
import { backoffMs } from '@switchboard/config';
import { createLogger, type Logger } from '@switchboard/observability';
import { ensureDatabase } from './db.ts';
import { isConnectionError } from '@switchboard/errors';
import type { SecretBox } from '@switchboard/security';
import { withSecretsKey } from './secrets-migration.ts';
import { sql } from './sql.ts';

/** What a service owns in its Postgres schema. */
export interface SchemaDefinition {
  entities: NonNullable<Options['entities']>;
  migrations: MigrationObject[];
}

export interface OrmOptions extends SchemaDefinition {
  databaseUrl: string;
  schema: string;
  poolMax: number;
  logger: Logger;
  /** SECRETS_KEY, handed to the migrations that seal secrets (SecretsMigration); they need it only when there are rows to seal. */
  secrets?: SecretBox | undefined;
}

/** Runs each migration inside the service's schema (set local: only for its transaction). */
export abstract class SchemaMigration extends Migration {
  protected useSchema(): void {
    const schema = this.config.get('schema');
    if (!schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${String(schema)}`);
    this.addSql(`set local search_path to "${schema}"`);
  }

  /** Runs a statement (`$1` parameters, as everywhere: docs/data-access.md) in the migration's transaction. */
  protected query<R = Record<string, unknown>>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    return sql<R>(this.getEntityManager() as EntityManager, text, values);
  }
}

export function ormConfig(o: OrmOptions): Options {
  return {
    clientUrl: o.databaseUrl,
    schema: o.schema,
    entities: o.entities,
    extensions: [Migrator],
    migrations: {
      migrationsList: withSecretsKey(o.migrations, o.secrets),
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    pool: { min: 0, max: o.poolMax, idleTimeoutMillis: 30_000 },
    // The pg pool's own settings: connectionTimeoutMillis bounds both the wait for a free pooled
    // connection and the opening of a new one.
    driverOptions: { statement_timeout: 10_000, connectionTimeoutMillis: 3_000 },
    debug: false,
    // Our own logger handles errors; no console output from the ORM.
    logger: (message: string) => o.logger.debug({ orm: message }),
    allowGlobalContext: false,
    forceUtcTimezone: true,
  };
}

/** The waits between tries to reach Postgres at start: 200 ms doubling to 2 s, spread so replicas do not come back together. */
const DATABASE_WAIT = { firstMs: 200, maxMs: 2000, spread: 0.2 };

/** Initialises the ORM (which does not connect by itself), waiting for Postgres while it is not reachable (e.g. a pod starting first). */
export async function initOrm(o: OrmOptions, waitMs = 60_000): Promise<MikroORM> {
  const orm = await MikroORM.init(ormConfig(o));
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureDatabase(o.databaseUrl);
      await orm.connect();
      if (await orm.isConnected()) return orm;
      throw new Error('database not connected');
    } catch (err) {
      if (Date.now() > deadline || (!isConnectionError(err) && !/not connected/.test(String(err)))) throw err;
      o.logger.warn({ attempt, err: (err as Error).message }, 'waiting for the database');
      await new Promise((r) => setTimeout(r, backoffMs(attempt, DATABASE_WAIT)));
    }
  }
}

/** Creates the schema if needed and applies pending migrations. Safe to run from several processes. */
export async function migrate(orm: MikroORM, schema: string, logger: Logger): Promise<void> {
  const em = orm.em.fork();
  // One migrator at a time across replicas: a transaction-level advisory lock keyed by the schema name.
  await sql(em, `create schema if not exists "${schema}"`);
  await em.transactional(async (tx) => {
    await sql(tx, `select pg_advisory_xact_lock(hashtext($1))`, [`switchboard-migrate-${schema}`]);
    const pending = await orm.migrator.getPending();
    if (pending.length > 0) {
      await orm.migrator.up({ transaction: tx.getTransactionContext() });
      logger.info({ applied: pending.map((m) => m.name) }, 'migrations applied');
    }
  });
}

/** An ORM of `o` (initOrm) with its schema migrated to the latest; closed again when a migration fails. */
export async function initMigratedOrm(o: OrmOptions, waitMs?: number): Promise<MikroORM> {
  const orm = await initOrm(o, waitMs);
  try {
    await migrate(orm, o.schema, o.logger);
  } catch (err) {
    await orm.close(true);
    throw err;
  }
  return orm;
}

/** The database settings every schema-owning service reads from its environment. */
export interface DatabaseConfig {
  DATABASE_URL: string;
  DB_SCHEMA: string;
  LOG_LEVEL: string;
  SECRETS_KEY?: SecretBox | undefined;
}

/**
 * The body of a service's `src/migrate.ts`: applies the pending migrations of its schema and
 * returns (a release Job runs it once per release).
 */
export async function runMigrations(
  service: string,
  definition: SchemaDefinition,
  config: DatabaseConfig,
): Promise<void> {
  const logger = createLogger(`${service}-migrate`, config.LOG_LEVEL);
  const orm = await initMigratedOrm({
    ...definition,
    databaseUrl: config.DATABASE_URL,
    schema: config.DB_SCHEMA,
    poolMax: 2,
    logger,
    secrets: config.SECRETS_KEY,
  });
  logger.info('migrations up to date');
  await orm.close(true);
}
