// @switchboard/observability: logger, metrics, tracing, the ops endpoints, graceful shutdown, background loops. Only re-exports here.
export * from './background-loop.ts';
export * from './logger.ts';
export * from './metrics.ts';
export * from './ops.ts';
export * from './shutdown.ts';
export * from './tracing.ts';
