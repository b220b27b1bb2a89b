// Original file: proto/switchboard/applications/v1/applications.proto


export interface GetApplicationSecretResponse {
  'secret'?: (string);
}

export interface GetApplicationSecretResponse__Output {
  'secret': (string);
}
