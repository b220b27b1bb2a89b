// A migrated ORM on a fresh test database, set up as the services set theirs up (initOrm, migrate).
import type { MikroORM } from '@mikro-orm/postgresql';
import { initMigratedOrm, type OrmOptions } from '@switchboard/db';
import { createLogger } from '@switchboard/observability';
import { useFixture } from './fixture';
import { createTestDatabase, type TestDatabase } from './infra';

/** What a test's ORM is made of: its entities and migrations, schema, pool and SECRETS_KEY. */
export type TestOrmOptions = Omit<OrmOptions, 'databaseUrl' | 'logger'>;

/** Opens an ORM of `o` on the database at `databaseUrl` and migrates it to the latest schema. */
export async function openMigratedOrm(databaseUrl: string, o: TestOrmOptions): Promise<MikroORM> {
  return initMigratedOrm({ ...o, databaseUrl, logger: createLogger('test', 'silent') });
}

/**
 * A fresh database with a migrated ORM of `o` on it for the tests of the file or describe block;
 * the ORM is closed and the database dropped after them. `onReady` receives both.
 */
export function useMigratedOrm(o: TestOrmOptions, onReady: (f: { db: TestDatabase; orm: MikroORM }) => void): void {
  useFixture(
    async () => {
      const db = await createTestDatabase();
      try {
        return { db, orm: await openMigratedOrm(db.url, o) };
      } catch (err) {
        await db.drop();
        throw err;
      }
    },
    async ({ db, orm }) => {
      await orm.close(true);
      await db.drop();
    },
    onReady,
  );
}
