// @switchboard/rpc: the gRPC server and clients, call batching. Only re-exports here.
export * from './grpc-batch.ts';
export * from './grpc.ts';
