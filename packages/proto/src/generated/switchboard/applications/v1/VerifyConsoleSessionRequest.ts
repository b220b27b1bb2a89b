// Original file: proto/switchboard/applications/v1/applications.proto


export interface VerifyConsoleSessionRequest {
  'token'?: (string);
}

export interface VerifyConsoleSessionRequest__Output {
  'token': (string);
}
