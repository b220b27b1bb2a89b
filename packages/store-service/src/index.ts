// @switchboard/store-service: the life cycle and configuration of a service that owns a Postgres schema. Only re-exports here.
export * from './service.ts';
export * from './store-service-config.ts';
