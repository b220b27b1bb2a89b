// The applications schema's ORM: the shared setup (@switchboard/orm) with this service's entities and migrations.
import type { MikroORM } from '@mikro-orm/postgresql';
import type { SecretBox } from '@switchboard/platform';
import { initOrm as initShared, migrate, type OrmOptions as SharedOptions } from '@switchboard/orm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { secretMigrations } from './secret-migrations';

export { migrate };
export type OrmOptions = Omit<SharedOptions, 'entities' | 'migrations'> & {
  /** SECRETS_KEY: the migrations that seal secrets need it when there are rows to seal. */
  secrets: SecretBox | undefined;
};

/** Initialises the ORM, waiting for Postgres while it is not reachable (e.g. a pod starting first). */
export function initOrm(o: OrmOptions, waitMs?: number): Promise<MikroORM> {
  const { secrets, ...shared } = o;
  return initShared({ ...shared, entities: ENTITIES, migrations: [...MIGRATIONS, ...secretMigrations(secrets)] }, waitMs);
}
