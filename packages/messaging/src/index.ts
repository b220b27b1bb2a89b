// @switchboard/messaging: the NATS JetStream connection, publishing and consuming. Only re-exports here.
export * from './nats.ts';
