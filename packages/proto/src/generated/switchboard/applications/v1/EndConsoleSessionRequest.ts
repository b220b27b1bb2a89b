// Original file: proto/switchboard/applications/v1/applications.proto


export interface EndConsoleSessionRequest {
  'token'?: (string);
}

export interface EndConsoleSessionRequest__Output {
  'token': (string);
}
