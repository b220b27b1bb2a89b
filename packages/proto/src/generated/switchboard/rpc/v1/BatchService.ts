// Original file: proto/switchboard/rpc/v1/batch.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BatchRequest as _switchboard_rpc_v1_BatchRequest, BatchRequest__Output as _switchboard_rpc_v1_BatchRequest__Output } from '../../../switchboard/rpc/v1/BatchRequest.ts';
import type { BatchResponse as _switchboard_rpc_v1_BatchResponse, BatchResponse__Output as _switchboard_rpc_v1_BatchResponse__Output } from '../../../switchboard/rpc/v1/BatchResponse.ts';

export interface BatchServiceClient extends grpc.Client {
  Call(argument: _switchboard_rpc_v1_BatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  Call(argument: _switchboard_rpc_v1_BatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  Call(argument: _switchboard_rpc_v1_BatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  Call(argument: _switchboard_rpc_v1_BatchRequest, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  call(argument: _switchboard_rpc_v1_BatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  call(argument: _switchboard_rpc_v1_BatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  call(argument: _switchboard_rpc_v1_BatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  call(argument: _switchboard_rpc_v1_BatchRequest, callback: grpc.requestCallback<_switchboard_rpc_v1_BatchResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface BatchServiceHandlers extends grpc.UntypedServiceImplementation {
  Call: grpc.handleUnaryCall<_switchboard_rpc_v1_BatchRequest__Output, _switchboard_rpc_v1_BatchResponse>;
  
}

export interface BatchServiceDefinition extends grpc.ServiceDefinition {
  Call: MethodDefinition<_switchboard_rpc_v1_BatchRequest, _switchboard_rpc_v1_BatchResponse, _switchboard_rpc_v1_BatchRequest__Output, _switchboard_rpc_v1_BatchResponse__Output>
}
