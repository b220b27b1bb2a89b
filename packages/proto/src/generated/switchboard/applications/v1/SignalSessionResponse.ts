// Original file: proto/switchboard/applications/v1/applications.proto


export interface SignalSessionResponse {
  'queued'?: (boolean);
}

export interface SignalSessionResponse__Output {
  'queued': (boolean);
}
