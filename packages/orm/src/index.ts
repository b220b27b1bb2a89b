// @switchboard/orm: what the services that own a Postgres schema share (setup.ts: the MikroORM set-up
// and migrations; service.ts: the life cycle of such a service; the rest: SQL, outbox, idempotency,
// audit, partitions). Only re-exports here, so no module of the package imports this one.
export * from './setup.ts';
export * from './secrets-migration.ts';
export * from './service.ts';
export * from './outbox.ts';
export * from './sql.ts';
export * from './idempotency.ts';
export * from './audit.ts';
export * from './partitions.ts';
export * from './periodic-job.ts';
