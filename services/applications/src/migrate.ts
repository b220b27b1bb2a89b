// Applies the migrations of this service's schema and exits (a release Job runs this once).
import { runMigrations } from '@switchboard/db';
import { loadConfig } from './config.ts';
import { SCHEMA } from './db/schema.ts';

await runMigrations('applications', SCHEMA, loadConfig());
