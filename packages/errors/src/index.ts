// @switchboard/errors: one error type for the whole system and its gRPC/HTTP mappings. Only re-exports here.
export * from './errors.ts';
