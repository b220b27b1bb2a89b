// @switchboard/db: the one way to reach Postgres: SQL, MikroORM setup, migrations, idempotency, audit, outbox, partitions. Only re-exports here.
export * from './audit-context.ts';
export * from './audit-log.ts';
export * from './coalescer.ts';
export * from './db.ts';
export * from './idempotency-answers.ts';
export * from './idempotency.ts';
export * from './outbox.ts';
export * from './partitions.ts';
export * from './periodic-job.ts';
export * from './secrets-migration.ts';
export * from './setup.ts';
export * from './sql.ts';
export * from './timestamps.ts';
