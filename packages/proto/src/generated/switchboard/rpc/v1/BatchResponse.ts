// Original file: proto/switchboard/rpc/v1/batch.proto

import type { BatchedResult as _switchboard_rpc_v1_BatchedResult, BatchedResult__Output as _switchboard_rpc_v1_BatchedResult__Output } from '../../../switchboard/rpc/v1/BatchedResult.ts';

export interface BatchResponse {
  'results'?: (_switchboard_rpc_v1_BatchedResult)[];
}

export interface BatchResponse__Output {
  'results': (_switchboard_rpc_v1_BatchedResult__Output)[];
}
