// @switchboard/config: parsing of configuration from the environment, retention periods, backoff. Only re-exports here.
export * from './backoff.ts';
export * from './config.ts';
export * from './retention.ts';
