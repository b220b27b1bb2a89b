// Original file: proto/switchboard/applications/v1/applications.proto


export interface VerifyCredentialsRequest {
  'username'?: (string);
  'password'?: (string);
  'priority'?: (boolean);
}

export interface VerifyCredentialsRequest__Output {
  'username': (string);
  'password': (string);
  'priority': (boolean);
}
