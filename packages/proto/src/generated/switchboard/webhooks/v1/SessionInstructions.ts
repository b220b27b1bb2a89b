// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface SessionInstructions {
  'at'?: (string);
  'bytes'?: (number);
  'excerpt'?: (string);
  'truncated'?: (boolean);
}

export interface SessionInstructions__Output {
  'at': (string);
  'bytes': (number);
  'excerpt': (string);
  'truncated': (boolean);
}
