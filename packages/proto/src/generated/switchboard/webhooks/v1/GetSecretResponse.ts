// Original file: proto/switchboard/webhooks/v1/webhooks.proto


export interface GetSecretResponse {
  'secret'?: (string);
}

export interface GetSecretResponse__Output {
  'secret': (string);
}
