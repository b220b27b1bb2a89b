// Original file: proto/switchboard/rpc/v1/batch.proto


export interface BatchedCall {
  'method'?: (string);
  'request'?: (Buffer | Uint8Array | string);
  'metadata'?: ({[key: string]: Buffer | Uint8Array | string});
}

export interface BatchedCall__Output {
  'method': (string);
  'request': (Buffer);
  'metadata': ({[key: string]: Buffer});
}
