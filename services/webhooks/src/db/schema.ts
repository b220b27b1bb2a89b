// Everything this service owns in its Postgres schema, for the shared ORM setup (@switchboard/db).
import type { SchemaDefinition } from '@switchboard/db';
import { ENTITIES } from './entities.ts';
import { MIGRATIONS } from './migrations.ts';

export const SCHEMA: SchemaDefinition = { entities: ENTITIES, migrations: MIGRATIONS };
