export * from './errors';
export * from './config';
export * from './logger';
export * from './metrics';
export * from './ops';
export * from './shutdown';
export * from './grpc';
export * from './nats';
