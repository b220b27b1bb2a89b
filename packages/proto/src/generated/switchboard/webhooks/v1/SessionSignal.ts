// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface SessionSignal {
  'at'?: (string);
  'value'?: (string);
  'status'?: (string);
}

export interface SessionSignal__Output {
  'at': (string);
  'value': (string);
  'status': (string);
}
