// Original file: proto/switchboard/applications/v1/applications.proto


export interface SignalSessionRequest {
  'sessionId'?: (string);
  'value'?: (string);
}

export interface SignalSessionRequest__Output {
  'sessionId': (string);
  'value': (string);
}
