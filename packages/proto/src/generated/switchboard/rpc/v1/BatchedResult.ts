// Original file: proto/switchboard/rpc/v1/batch.proto


export interface BatchedResult {
  'code'?: (number);
  'details'?: (string);
  'response'?: (Buffer | Uint8Array | string);
  'metadata'?: ({[key: string]: Buffer | Uint8Array | string});
}

export interface BatchedResult__Output {
  'code': (number);
  'details': (string);
  'response': (Buffer);
  'metadata': ({[key: string]: Buffer});
}
