// Original file: proto/switchboard/rpc/v1/batch.proto

import type { BatchedCall as _switchboard_rpc_v1_BatchedCall, BatchedCall__Output as _switchboard_rpc_v1_BatchedCall__Output } from '../../../switchboard/rpc/v1/BatchedCall.ts';

export interface BatchRequest {
  'calls'?: (_switchboard_rpc_v1_BatchedCall)[];
}

export interface BatchRequest__Output {
  'calls': (_switchboard_rpc_v1_BatchedCall__Output)[];
}
