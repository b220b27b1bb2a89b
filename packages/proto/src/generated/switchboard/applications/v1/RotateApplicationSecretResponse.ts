// Original file: proto/switchboard/applications/v1/applications.proto


export interface RotateApplicationSecretResponse {
  'secret'?: (string);
}

export interface RotateApplicationSecretResponse__Output {
  'secret': (string);
}
