// The webhooks schema's ORM: the shared setup (@switchboard/orm) with this service's entities and migrations.
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm as initShared, migrate, type OrmOptions as SharedOptions } from '@switchboard/orm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export { migrate };
export type OrmOptions = Omit<SharedOptions, 'entities' | 'migrations'>;

/** Initialises the ORM, waiting for Postgres while it is not reachable (e.g. a pod starting first). */
export function initOrm(o: OrmOptions, waitMs?: number): Promise<MikroORM> {
  return initShared({ ...o, entities: ENTITIES, migrations: MIGRATIONS }, waitMs);
}
