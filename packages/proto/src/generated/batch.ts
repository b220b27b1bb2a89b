import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { BatchRequest as _switchboard_rpc_v1_BatchRequest, BatchRequest__Output as _switchboard_rpc_v1_BatchRequest__Output } from './switchboard/rpc/v1/BatchRequest.ts';
import type { BatchResponse as _switchboard_rpc_v1_BatchResponse, BatchResponse__Output as _switchboard_rpc_v1_BatchResponse__Output } from './switchboard/rpc/v1/BatchResponse.ts';
import type { BatchServiceClient as _switchboard_rpc_v1_BatchServiceClient, BatchServiceDefinition as _switchboard_rpc_v1_BatchServiceDefinition } from './switchboard/rpc/v1/BatchService.ts';
import type { BatchedCall as _switchboard_rpc_v1_BatchedCall, BatchedCall__Output as _switchboard_rpc_v1_BatchedCall__Output } from './switchboard/rpc/v1/BatchedCall.ts';
import type { BatchedResult as _switchboard_rpc_v1_BatchedResult, BatchedResult__Output as _switchboard_rpc_v1_BatchedResult__Output } from './switchboard/rpc/v1/BatchedResult.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchboard: {
    rpc: {
      v1: {
        BatchRequest: MessageTypeDefinition<_switchboard_rpc_v1_BatchRequest, _switchboard_rpc_v1_BatchRequest__Output>
        BatchResponse: MessageTypeDefinition<_switchboard_rpc_v1_BatchResponse, _switchboard_rpc_v1_BatchResponse__Output>
        BatchService: SubtypeConstructor<typeof grpc.Client, _switchboard_rpc_v1_BatchServiceClient> & { service: _switchboard_rpc_v1_BatchServiceDefinition }
        BatchedCall: MessageTypeDefinition<_switchboard_rpc_v1_BatchedCall, _switchboard_rpc_v1_BatchedCall__Output>
        BatchedResult: MessageTypeDefinition<_switchboard_rpc_v1_BatchedResult, _switchboard_rpc_v1_BatchedResult__Output>
      }
    }
  }
}

